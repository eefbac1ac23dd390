# expect: ok
# value: ["cfbff0d1-9375-5685-968c-48ce8b15ae17", "60a7f89c-e446-309c-8b4f-460bfdfd0dee", 4, "00000000-0000-0000-0000-000000000001"]
# uuid: name-based UUIDs are deterministic.
import uuid
result = [str(uuid.uuid5(uuid.NAMESPACE_DNS, "example.com")), str(uuid.uuid3(uuid.NAMESPACE_URL, "x")), uuid.uuid4().version, str(uuid.UUID(int=1))]
