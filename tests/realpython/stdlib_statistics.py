# expect: ok
# value: [5, 4.5, 4, 2.0, 2.13809, [4.0, 4.5, 6.5]]
# statistics over a small sample.
import statistics as st
data = [2, 4, 4, 4, 5, 5, 7, 9]
result = [st.mean(data), st.median(data), st.mode(data), st.pstdev(data), round(st.stdev(data), 6), st.quantiles(data, n=4)]
