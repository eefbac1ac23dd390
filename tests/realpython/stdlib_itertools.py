# expect: ok
# value: [[1, 3, 6, 10], [["a", "b"], ["a", "c"], ["b", "c"]], ["x", "y", "x", "y", "x"], [["a", 3], ["b", 2], ["c", 1]], [[1, 2], [2, 3]], [[0, 0], [0, 1], [1, 0], [1, 1]]]
# itertools recipes.
import itertools as it
result = [list(it.accumulate([1, 2, 3, 4])), list(it.combinations("abc", 2)), list(it.islice(it.cycle("xy"), 5)),
          [(k, len(list(g))) for k, g in it.groupby("aaabbc")], list(it.pairwise([1, 2, 3])), list(it.product([0, 1], repeat=2))]
