# expect: ok
# value: "<config>\n  <item name=\"a\">1</item>\n  <item name=\"b\">2</item>\n</config>"
# xml.etree: build a tree and pretty-print it.
import xml.etree.ElementTree as ET
root = ET.Element("config")
for k, v in [("a", "1"), ("b", "2")]:
    ET.SubElement(root, "item", name=k).text = v
ET.indent(root)
result = ET.tostring(root, encoding="unicode")
