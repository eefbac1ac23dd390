# String work: split, join, replace, formatting, methods.
TEXT = ' '.join('word%d' % i for i in range(400))

def work():
    out = []
    for n in range(120):
        words = TEXT.split()
        upper = [w.upper() for w in words if w.endswith(str(n % 10))]
        line = '-'.join(upper).replace('WORD', 'w')
        out.append(f'{n}:{len(line)}:{line[:20]}')
    return len(''.join(out))
