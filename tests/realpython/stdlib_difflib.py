# expect: ok
# value: [["--- ", "+++ ", "@@ -1,3 +1,4 @@", " one", "-two", "+too", " three", "+four"], ["apple", "ape"], 0.75]
# difflib.
import difflib
a = ["one", "two", "three"]
b = ["one", "too", "three", "four"]
result = [list(difflib.unified_diff(a, b, lineterm="")), difflib.get_close_matches("appel", ["ape", "apple", "peach"]), round(difflib.SequenceMatcher(None, "abcd", "abed").ratio(), 4)]
