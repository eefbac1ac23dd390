# expect: ok
# value: [["Apple", "Banana", "apple", "banana", "cherry"], ["Apple", "apple", "banana", "Banana", "cherry"], ["Apple", "apple", "banana", "cherry", "Banana"], [9, 6, 3, 0, 7, 4, 1, 8, 5, 2]]
# sorted with keys, stable sorts, casefold.
words = ["banana", "Apple", "cherry", "apple", "Banana"]
result = [sorted(words), sorted(words, key=str.casefold), sorted(words, key=len), sorted(range(10), key=lambda n: (n % 3, -n))]
