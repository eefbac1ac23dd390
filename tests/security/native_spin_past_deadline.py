# expect: timeout
# native: eager
# deadline: 3s
# Compile a function to native code and spin in it forever: no bytecode runs,
# so no interpreter check can stop it. The host must still end the execution
# as a timeout (the child is killed after its grace), and the engine goes on.
def spin(n: int) -> int:
    i = 0
    while i >= 0:
        i = (i + n) % 1000
    return i

result = spin(1)
