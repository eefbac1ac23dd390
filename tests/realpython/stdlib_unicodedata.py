# expect: ok
# value: ["GREEK SMALL LETTER BETA", "Lu", true, 0.5, "☃"]
# unicodedata.
import unicodedata
result = [unicodedata.name("\u03b2"), unicodedata.category("A"), unicodedata.normalize("NFD", "\u00e9") == "e\u0301", unicodedata.numeric("\u00bd"), unicodedata.lookup("SNOWMAN")]
