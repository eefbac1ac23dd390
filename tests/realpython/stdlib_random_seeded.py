# expect: ok
# value: [54, "f", [0, 9, 11, 6], 0.270244841, [5, 4, 0, 2, 1, 3]]
# random with a fixed seed is reproducible.
import random
rng = random.Random(12345)
result = [rng.randint(1, 100), rng.choice("abcdef"), rng.sample(range(20), 4), round(rng.random(), 10), rng.shuffle(l := list(range(6))) or l]
