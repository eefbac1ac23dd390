# expect: ok
# value: [0.6, 2.2, 0.774597]
# statistics.linear_regression and correlation.
import statistics as st
x = [1, 2, 3, 4, 5]
y = [2, 4, 5, 4, 5]
slope, intercept = st.linear_regression(x, y)
result = [round(slope, 6), round(intercept, 6), round(st.correlation(x, y), 6)]
