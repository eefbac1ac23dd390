"""The guest's half of the wire vocabulary: one canonical encoding of a tool request.

Every path that names a tool call (a plain call, a PLM prepare, a prefix
prepare, a resolve, a prefix claim) encodes it here, so two requests for the
same call are byte-identical and can be matched by string equality. The host
canonicalises the same way before it compares a resolve with its prepare.
"""
import json

_encoder = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":")
)


def encode_request(name, args):
    """Return the canonical JSON text of a call of tool `name` with keyword `args`.

    Raises TypeError for an argument JSON cannot encode (naming its type) and
    ValueError for NaN or an infinity, so the error surfaces at the call site.
    """
    return _encoder.encode({"tool": name, "args": args})
