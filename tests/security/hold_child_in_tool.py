# expect: timeout
# Hold the sandboxed child for an hour inside a tool call. The deadline must
# cancel the call's context and interrupt the program at that call, and the
# child's slot must be freed for the next execution instead of being held
# until the tool gives up.
result = sleep(ms=3600000)
