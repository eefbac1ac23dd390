# expect: ok
# value: ["01000000feff0000000000010000", [1, -2, 1099511627776], 14, [1.5, 2.5, 3.5], 8]
# struct and array.
import struct, array
packed = struct.pack("<IhQ", 1, -2, 2**40)
a = array.array("d", [1.5, 2.5])
a.append(3.5)
result = [packed.hex(), struct.unpack("<IhQ", packed), struct.calcsize("<IhQ"), a.tolist(), a.itemsize]
