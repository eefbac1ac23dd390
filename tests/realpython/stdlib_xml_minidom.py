# expect: ok
# value: ["1", "2"]
# xml.dom.minidom parsing.
from xml.dom import minidom
doc = minidom.parseString("<a><b x='1'/><b x='2'/></a>")
result = [n.getAttribute("x") for n in doc.getElementsByTagName("b")]
