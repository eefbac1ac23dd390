# expect: error TOMLDecodeError
# tomllib refuses a malformed document.
import tomllib
tomllib.loads("key = ")
