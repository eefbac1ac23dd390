# expect: error PermissionError
# Write into another execution's scratch directory: the child's own
# Landlock layer grants writes in its slot only.
import os
mine = int(os.path.basename(os.getcwd()))
open(f'/scratch/{(mine + 1) % 64}/planted', 'w').write('x')
result = 1
