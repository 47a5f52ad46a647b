import GraphQLLanguage

extension ReadResult.Outcome {
  /// `hit`, `stale` or `miss`: the outcome's name as `cachebench normalize --read` prints it.
  public var name: String {
    switch self {
    case .hit: "hit"
    case .stale: "stale"
    case .miss: "miss"
    }
  }
}

extension ReadResult {
  /// The read as `cachebench normalize --read` prints it (docs/ttl.md#reads-with-a-clock):
  ///
  /// ```json
  /// {"outcome": "stale", "data": {"book": {"title": "Dune", "price": 10}}, "expired": ["book.price"], "missing": []}
  /// ```
  /// `data` is the response (members in the selection's order) of a hit or a stale read, else
  /// null; `expired` and `missing` are ``expired`` and ``missing`` spelled as
  /// ``spelled(_:)`` (`books.0.author.name`), sorted; the empty path `""` is the root record.
  public var outcomeJSON: JSONObject {
    [
      "outcome": .string(outcome.name),
      "data": data.map(JSONValue.object) ?? .null,
      "expired": .array(expired.map { .string(Self.spelled($0)) }),
      "missing": .array(missing.map { .string(Self.spelled($0)) }),
    ]
  }
}
