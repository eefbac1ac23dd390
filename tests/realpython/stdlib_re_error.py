# expect: error error
# An invalid regular expression raises re.error.
import re
re.compile("(unclosed")
