// "testing.*" globals: fixed, documented behaviour that the Python binding's
// tests and the benchmark call through the registry. Kept in the library so
// every loader of the runtime sees the same functions.
#include <cmath>
#include <tuple>

#include "spine/runtime/list.h"
#include "spine/runtime/registry.h"
#include "spine/runtime/str.h"

namespace spine::runtime {
namespace {

/** A runtime type with a dynamic index, for Python class registration tests. */
class PointNode : public object_t {
 public:
  static constexpr int32_t INDEX = TypeIndex::Dynamic;
  static constexpr std::string_view NAME = "testing.Point";
  SPINE_DEFINE_TYPEINDEX(PointNode, object_t)
  PointNode(double x, double y) : x(x), y(y) {}
  const double x, y;
};

class Point : public object_r {
 public:
  using ContainerType = PointNode;
  Point() = default;
  explicit Point(object_p<object_t> n) noexcept : object_r(std::move(n)) {}
  Point(double x, double y) : object_r(object_p<object_t>(MakeObject<PointNode>(x, y))) {}
  const PointNode* operator->() const { return NodeOf<PointNode>(*this); }
};

// Make the type known at load time so Python can register a class for it by name.
[[maybe_unused]] const int32_t kPointIndex = PointNode::RuntimeTypeIndex();

REGISTER_GLOBAL("testing.add").Params({Arg("a"), Arg("b")}).SetBody([](int64_t a, int64_t b) { return a + b; });
REGISTER_GLOBAL("testing.scaled_add")
    .Params({Arg("a"), Arg("b", 10), KwOnly("scale", 1)})
    .SetBody([](int64_t a, int64_t b, int64_t scale) { return (a + b) * scale; });
REGISTER_GLOBAL("testing.add4")
    .Params({Arg("a"), Arg("b"), Arg("c"), Arg("d")})
    .SetBody([](int64_t a, int64_t b, int64_t c, int64_t d) { return std::make_tuple(a + b, c + d, a * b, c * d); });
REGISTER_GLOBAL("testing.echo").Params({Arg("value")}).SetBody([](const McValue& v) { return v; });
REGISTER_GLOBAL("testing.concat").Params({Arg("a"), Arg("b")}).SetBody([](Str a, Str b) { return a + b; });
REGISTER_GLOBAL("testing.hypot").Params({Arg("x"), Arg("y")}).SetBody([](double x, double y) { return std::hypot(x, y); });
REGISTER_GLOBAL("testing.negate").Params({Arg("flag")}).SetBody([](bool b) { return !b; });
REGISTER_GLOBAL("testing.fail").Params({Arg("message")}).SetBody([](std::string m) -> int64_t { ThrowValueError(m); });
REGISTER_GLOBAL("testing.nothing").SetBody([] {});
REGISTER_GLOBAL("testing.MakePoint").Params({Arg("x"), Arg("y")}).SetBody([](double x, double y) { return Point(x, y); });
REGISTER_GLOBAL("testing.PointX").Params({Arg("p")}).SetBody([](Point p) { return p->x; });
REGISTER_GLOBAL("testing.PointY").Params({Arg("p")}).SetBody([](Point p) { return p->y; });
REGISTER_GLOBAL("testing.ListSum").Params({Arg("items")}).SetBody([](List l) {
  int64_t s = 0;
  for (const McValue& v : l) s += v.As<int64_t>();
  return s;
});
REGISTER_FUNCTION("testing.count_args", [](Parameters args) { return McValue(static_cast<int64_t>(args.size())); });

}  // namespace
}  // namespace spine::runtime
