# expect: ok
# value: ["école à zürich — αβγ", "ÉCOLE À ZÜRICH — ΑΒΓ", 20, "ΓΒΑ — hcirüZ à elocÉ", ["Zürich", "École", "à", "ΑΒΓ", "—"]]
# Unicode string operations.
s = "\u00c9cole \u00e0 Z\u00fcrich \u2014 \u0391\u0392\u0393"
result = [s.lower(), s.upper(), len(s), s[::-1], sorted(set(s.split()))]
