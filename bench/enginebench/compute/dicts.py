# Dict building, lookups and updates with string and int keys.
def work():
    counts = {}
    for i in range(18000):
        key = 'k%d' % (i % 500)
        counts[key] = counts.get(key, 0) + i
    index = {v: k for k, v in counts.items()}
    hits = 0
    for i in range(18000):
        if ('k%d' % i) in counts:
            hits += 1
    return hits + len(index)
