# expect: violation
# Walk __subclasses__ to os.system, the classic escape.
for c in ().__class__.__base__.__subclasses__():
    if c.__name__ == '_wrap_close':
        c.__init__.__globals__['system']('id')
result = 'no _wrap_close'
