# expect: ok
# value: ["4772c3bcc39f6520ceb220e28891", "47007200fc00", "Grüße ? ?", "Gr&#252;&#223;e &#946; &#8721;", 14]
# Text encodings: encode and decode with several codecs.
s = "Grüße β ∑"
result = [s.encode("utf-8").hex(), s.encode("utf-16-le")[:6].hex(), s.encode("latin-1", errors="replace").decode("latin-1"), s.encode("ascii", errors="xmlcharrefreplace").decode(), len(s.encode())]
