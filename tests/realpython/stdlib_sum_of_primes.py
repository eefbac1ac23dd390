# expect: ok
# value: [1229, 5736396, 9973]
# A small computation: primes by sieve.
def primes(n):
    sieve = [True] * (n + 1)
    sieve[0:2] = [False, False]
    for i in range(2, int(n ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = [False] * len(sieve[i * i::i])
    return [i for i, p in enumerate(sieve) if p]
p = primes(10000)
result = [len(p), sum(p), p[-1]]
