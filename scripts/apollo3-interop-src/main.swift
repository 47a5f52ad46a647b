// The interoperability checker of scripts/apollo3-interop: the same records written and read by
// cachebench's `rows` layout (its SQLiteCache library, the code `cachebench` runs) and by Apollo iOS
// 3.0's row store (`ApolloSQLiteDatabase.insertOrUpdate(records:)`, `selectRecords(forKeys:)`),
// one side per process, through the file alone. Built in a scratch copy of the Apollo harness by the
// script (Apollo's code is never in our repository); this file and its two siblings are ours.
//
//   apollo3-interop fixture                 the records, in the normalized form below
//   apollo3-interop write-ours|write-apollo FILE
//   apollo3-interop read-ours|read-apollo FILE
//
// Normalized form, one JSON object a line per record, keys of the fixture in order:
//   {"key": K, "fields": {NAME: {"at": SECONDS, "value": V}}} or {"key": K, "error": TEXT} or
//   {"key": K, "absent": true}; V tagged: {"null":true} {"bool":B} {"int":"N"} {"double":"D"}
//   (Swift's description: -0.0, nan, inf) {"string":S} {"ref":K} {"list":[V]} {"object":{NAME:V}}.
// A field's date is 0 where the record has none (a rows file holds 0 then).
import Foundation

indirect enum V {
  case null, bool(Bool), int(Int), double(Double), string(String), ref(String), list([V]), object([(String, V)])
}

struct Field { let name: String; let value: V; let at: Int }
struct FixtureRecord { let key: String; let fields: [Field] }

func rec(_ key: String, at: Int = 0, _ fields: [(String, V)]) -> FixtureRecord {
  FixtureRecord(key: key, fields: fields.map { Field(name: $0.0, value: $0.1, at: at) })
}

/// Every kind of value the rows layout stores, spread over several records so that one record the
/// other side cannot read leaves the rest to compare. Records whose key starts with `Edge:` hold
/// one value each whose fate the docs describe (-0.0, NaN, infinities, NUL).
let fixture: [FixtureRecord] = [
  rec("QUERY_ROOT", [
    ("book({\"id\":\"1\"})", .ref("Book:1")), ("books", .list([.ref("Book:1"), .ref("Book:2")])),
    ("hero", .ref("QUERY_ROOT.hero")), ("nothing", .null), ("noBooks", .list([])),
  ]),
  rec("QUERY_ROOT.hero", [("name", .string("R2-D2")), ("__typename", .string("Droid"))]),
  rec("Book:1", at: 1_700_000_000, [
    ("id", .string("1")), ("title", .string("Dune")), ("pages", .int(412)), ("rating", .double(4.5)),
    ("inPrint", .bool(true)), ("discontinued", .bool(false)), ("subtitle", .null), ("author", .ref("Author:1")),
    ("tags", .list([.string("sf"), .string("classic")])), ("noTags", .list([])),
    ("reviews", .list([.ref("Review:1"), .ref("Review:2")])),
    ("printings", .list([.list([.int(1965), .int(1966)]), .list([])])),
    ("refGrid", .list([.list([.ref("Author:1")]), .list([.ref("Review:1"), .ref("Review:2")])])),
    ("mixed", .list([.int(1), .string("two"), .null, .bool(true), .double(2.5), .ref("Author:1")])),
    ("nulls", .list([.null, .null])), ("bools", .list([.bool(false), .bool(true)])),
  ]),
  rec("Lists:threeDeep", at: 1_700_000_000, [
    ("grid", .list([.list([.list([.int(1)]), .list([.int(2), .int(3)])]), .list([.list([])])])),
    ("strings", .list([.list([.list([.string("a")])])])),
  ]),
  rec("Book:2", at: 1_700_000_100, [("id", .string("2")), ("title", .string("Children of Dune")), ("author", .ref("Author:1"))]),
  rec("Author:1", [
    ("id", .string("a1")), ("name", .string("Frank Herbert")), ("born", .int(-1920)), ("zero", .int(0)),
    ("max", .int(Int.max)), ("min", .int(Int.min)), ("books", .list([.ref("Book:1"), .ref("Book:2")])),
  ]),
  rec("Review:1", at: 5, [("stars", .int(5)), ("body", .string("A classic."))]),
  rec("Review:2", at: 5, [("stars", .int(3)), ("body", .string(""))]),
  rec("Numbers:1", at: 1, [
    ("half", .double(0.5)), ("negative", .double(-2.25)), ("tiny", .double(5e-324)),
    ("huge", .double(1.7976931348623157e308)), ("sum", .double(0.1 + 0.2)), ("integral", .double(2.0)),
    ("doubles", .list([.double(1.5), .double(2.0), .double(-3.75)])),
  ]),
  rec("Strings:1", [
    ("unicode", .string("Dune — ✓ 🚀 é")), ("escapes", .string("say \"hi\" \\ a\nb\tc")),
    ("looksNull", .string("null")), ("looksNumber", .string("42")), ("looksBool", .string("true")),
    ("looksReference", .string("{\"$reference\":\"Book:1\"}")), ("looksKey", .string("Book:1")),
    ("long", .string(String(repeating: "x", count: 5000))), ("naïve field", .string("name with a space")),
  ]),
  FixtureRecord(key: "Dated:1", fields: [
    Field(name: "a", value: .int(1), at: 100), Field(name: "b", value: .string("b"), at: 200),
    Field(name: "c", value: .list([.int(1), .list([.int(2)])]), at: 300),
  ]),
  rec("Edge:negativeZero", at: 1, [("value", .double(-0.0))]),
  rec("Edge:negativeZeroInList", at: 1, [("value", .list([.double(1.0), .double(-0.0)]))]),
  rec("Edge:nan", at: 1, [("value", .double(.nan))]),
  rec("Edge:infinity", at: 1, [("value", .double(.infinity))]),
  rec("Edge:negativeInfinity", at: 1, [("value", .double(-.infinity))]),
  rec("Edge:nul", [("value", .string("a\u{0}b"))]),
]

// MARK: The normalized JSON form

func jsonString(_ s: String) -> String {
  var out = "\""
  for u in s.unicodeScalars {
    switch u {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\t": out += "\\t"
    default:
      if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
    }
  }
  return out + "\""
}

func json(_ v: V) -> String {
  switch v {
  case .null: return "{\"null\":true}"
  case .bool(let b): return "{\"bool\":\(b)}"
  case .int(let i): return "{\"int\":\"\(i)\"}"
  case .double(let d): return "{\"double\":\"\(d)\"}"
  case .string(let s): return "{\"string\":\(jsonString(s))}"
  case .ref(let k): return "{\"ref\":\(jsonString(k))}"
  case .list(let l): return "{\"list\":[" + l.map(json).joined(separator: ",") + "]}"
  case .object(let o): return "{\"object\":{" + o.map { jsonString($0.0) + ":" + json($0.1) }.joined(separator: ",") + "}}"
  }
}

func line(_ key: String, _ fields: [Field]) -> String {
  let members = fields.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    .map { jsonString($0.name) + ":{\"at\":\($0.at),\"value\":" + json($0.value) + "}" }
  return "{\"key\":\(jsonString(key)),\"fields\":{" + members.joined(separator: ",") + "}}"
}
func errorLine(_ key: String, _ error: Any) -> String {
  "{\"key\":\(jsonString(key)),\"error\":\(jsonString(String(describing: error)))}"
}
func absentLine(_ key: String) -> String { "{\"key\":\(jsonString(key)),\"absent\":true}" }

// MARK: Commands

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(("apollo3-interop: " + message + "\n").data(using: .utf8)!)
  exit(64)
}

let args = Array(CommandLine.arguments.dropFirst())
switch (args.first, args.count) {
case ("fixture", 1):
  for r in fixture { print(line(r.key, r.fields)) }
case ("write-ours", 2): writeOurs(args[1], fixture)
case ("write-apollo", 2): writeApollo(args[1], fixture)
case ("read-ours", 2): for line in readOurs(args[1], fixture.map(\.key)) { print(line) }
case ("read-apollo", 2): for line in readApollo(args[1], fixture.map(\.key)) { print(line) }
default: fail("usage: apollo3-interop fixture | write-ours FILE | write-apollo FILE | read-ours FILE | read-apollo FILE")
}
