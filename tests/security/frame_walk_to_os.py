# expect: violation
# Walk frames up into bootstrap's globals and on to posix.system.
import sys
f = sys._getframe()
while f.f_back is not None and f.f_globals.get('__name__') != 'bootstrap':
    f = f.f_back
mods = f.f_globals['sys'].modules
mods['posix'].system('id')
result = 1
