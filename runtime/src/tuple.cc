#include "spine/runtime/tuple.h"

namespace spine::runtime {

Tuple::Tuple(std::vector<McValue> items) : object_r(object_p<object_t>(MakeObject<TupleNode>(std::move(items)))) {}

}  // namespace spine::runtime
