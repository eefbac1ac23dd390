# expect: ok
# mode: plm
# value: {"out": [7, 14, 21], "seen": ["iter"]}
# A list subclass records every time it is read: fan-out at loop start reads
# ahead only exact lists, tuples, ranges, strings and dicts (their slicing and
# iteration run no program code), so this one is iterated exactly once, by
# the loop itself, as in the plain program -- no slice, no second iteration.
seen = []
class Watched(list):
    def __iter__(self):
        seen.append("iter")
        return iter(self.copy())   # list.copy gives an exact list
    def __getitem__(self, index):
        seen.append("getitem")
        return self.copy()[index]
    def __len__(self):
        seen.append("len")
        return len(self.copy())
out = []
for k in Watched([1, 2, 3]):
    out.append(lookup(key=k))
result = {"out": out, "seen": seen}
