# expect: ok
# value: [true, true, true, true, true, 259317917]
# zlib, gzip, bz2 and lzma in memory.
import zlib, gzip, bz2, lzma
data = b"spine " * 100
result = [len(zlib.compress(data)) < len(data), zlib.decompress(zlib.compress(data)) == data, gzip.decompress(gzip.compress(data)) == data, bz2.decompress(bz2.compress(data)) == data, lzma.decompress(lzma.compress(data)) == data, zlib.adler32(data)]
