# expect: error SAXReaderNotAvailable
# isolation: sandbox
# xml.sax finds no parser in the sandbox: its expat driver imports
# xml.sax.saxutils, which imports urllib.request (to open URLs a document
# names), and that is refused. xml.etree and xml.dom parse as in CPython.
import xml.sax
class H(xml.sax.ContentHandler):
    def __init__(self):
        super().__init__()
        self.tags = []
    def startElement(self, name, attrs):
        self.tags.append((name, dict(attrs)))
h = H()
xml.sax.parseString(b"<r><i k='1'/><i k='2'/></r>", h)
result = h.tags
