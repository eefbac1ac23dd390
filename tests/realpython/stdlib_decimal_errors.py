# expect: error InvalidOperation
# decimal raises InvalidOperation for a malformed number.
from decimal import Decimal
Decimal("twelve")
