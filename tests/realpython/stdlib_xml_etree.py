# expect: ok
# value: [["A", "B"], ["1", "2", "3"], "<lib><book id=\"1\"><t>A</t></bo"]
# xml.etree: parse, find, modify, serialise.
import xml.etree.ElementTree as ET
root = ET.fromstring("<lib><book id='1'><t>A</t></book><book id='2'><t>B</t></book></lib>")
titles = [b.find("t").text for b in root.findall("book")]
ET.SubElement(root, "book", id="3").text = "C"
result = [titles, [b.get("id") for b in root.iter("book")], ET.tostring(root, encoding="unicode")[:30]]
