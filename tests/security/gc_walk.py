# expect: violation
# Find the os module through gc (now importable) and run a shell: seccomp
# kills the fork, whoever holds the module.
import gc, sys
os_mod = [o for o in gc.get_referents(sys.modules) if getattr(o, '__name__', None) == 'os'][0]
os_mod.system('id')
result = 1
