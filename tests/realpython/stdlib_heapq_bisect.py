# expect: ok
# value: [[1, 2, 3], [9, 7], [1, 3, 3, 4, 7], 1, 3]
# heapq and bisect.
import heapq, bisect
h = [5, 1, 8, 3, 2]
heapq.heapify(h)
smallest = [heapq.heappop(h) for _ in range(3)]
xs = [1, 3, 3, 7]
bisect.insort(xs, 4)
result = [smallest, heapq.nlargest(2, [4, 9, 1, 7]), xs, bisect.bisect_left(xs, 3), bisect.bisect_right(xs, 3)]
