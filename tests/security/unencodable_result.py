# expect: error TypeError
# Return an object JSON cannot carry.
result = object()
