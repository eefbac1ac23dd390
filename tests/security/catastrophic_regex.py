# expect: timeout
# Catastrophic backtracking: one long C call inside re.
import re
result = bool(re.match(r'(a+)+$', 'a' * 64 + 'b'))
