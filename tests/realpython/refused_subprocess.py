# expect: error ImportError
# isolation: sandbox
# subprocess is refused: a child runs one program, never another process.
import subprocess
