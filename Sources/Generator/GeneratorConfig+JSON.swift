import GraphQLLanguage

extension GeneratorConfig {
  /// Reads a workload's `generator` object: knobs by name, the others at their defaults.
  ///
  /// ```json
  /// {"responses": 200, "duplication": 0.9, "listLength": {"min": 1, "max": 8}}
  /// ```
  /// A range knob takes `{"min": a, "max": b}` or one integer for both ends.
  /// - Throws: ``GeneratorConfigError`` naming each unknown knob or value of the wrong kind,
  ///   then each knob out of range (``validate()``).
  public init(json: JSONObject) throws(GeneratorConfigError) {
    self.init()
    var problems: [GeneratorConfigError.Problem] = []
    // The fields per type as each of its two spellings gives them, `fieldsPerType` and
    // `narrowReads.of`: a file may write the one count twice, but not as two numbers.
    var spelled: (fieldsPerType: Int?, of: Int?) = (nil, nil)
    for member in json {
      guard let knob = Knob(rawValue: member.key) else {
        let known = Knob.allCases.map(\.rawValue).joined(separator: ", ")
        problems.append(.init(knob: member.key, message: "is not a generator knob; known knobs: \(known)"))
        continue
      }
      do {
        try set(knob, to: member.value)
        if knob == .fieldsPerType { spelled.fieldsPerType = givenFieldsPerType }
        if knob == .narrowReads, case .object(let object) = member.value, object["of"] != nil { spelled.of = givenFieldsPerType }
      } catch {
        problems += error.problems
      }
    }
    if problems.isEmpty, let given = spelled.fieldsPerType, let of = spelled.of, given != of {
      problems.append(
        .init(knob: "fieldsPerType", message: "is \(given), but narrowReads.of sets the fields per type (\(of)); leave fieldsPerType out"))
    }
    if !problems.isEmpty { throw GeneratorConfigError(problems: problems) }
    try validate()
  }

  /// Sets one knob from a JSON value, as a sweep does (`{"generator.duplication": [0, 0.5, 0.9]}`).
  /// Does not check the range; call ``validate()``.
  /// - Throws: ``GeneratorConfigError`` when the value is not of the knob's kind.
  public mutating func set(_ knob: Knob, to value: JSONValue) throws(GeneratorConfigError) {
    switch knob {
    case .responses: responses = try Self.int(value, knob.rawValue)
    case .operations: operations = try Self.int(value, knob.rawValue)
    case .depth: depth = try Self.int(value, knob.rawValue)
    case .fanOut: fanOut = try Self.int(value, knob.rawValue)
    case .listLength: listLength = try Self.bounds(value, knob.rawValue)
    case .listShare: listShare = try Self.number(value, knob.rawValue)
    case .types: types = try Self.int(value, knob.rawValue)
    case .fieldsPerType: fieldsPerType = try Self.int(value, knob.rawValue)
    case .poolSize: poolSize = try Self.int(value, knob.rawValue)
    case .duplication: duplication = try Self.number(value, knob.rawValue)
    case .zipf: zipf = try Self.number(value, knob.rawValue)
    case .keyedShare: keyedShare = try Self.number(value, knob.rawValue)
    case .compositeKeyShare: compositeKeyShare = try Self.number(value, knob.rawValue)
    case .interfaces: interfaces = try Self.int(value, knob.rawValue)
    case .unions: unions = try Self.int(value, knob.rawValue)
    case .stringLength: stringLength = try Self.bounds(value, knob.rawValue)
    case .cacheControl: cacheControl = try Self.cacheControl(value)
    case .narrowReads:
      let (config, of) = try Self.narrowReads(value)
      narrowReads = config
      // `of` is the fields per type; without it, they stay as set, or at narrow reads' default.
      if let of { fieldsPerType = of }
    }
  }

  /// `{"fields": 3, "of": 40, "share": 0.5}`, or null for none; and `of`, the fields per type,
  /// when given.
  private static func narrowReads(_ value: JSONValue) throws(GeneratorConfigError) -> (NarrowReadsConfig?, of: Int?) {
    if case .null = value { return (nil, nil) }
    guard case .object(let object) = value else {
      throw GeneratorConfigError(problems: [
        .init(
          knob: "narrowReads",
          message: "must be an object ({\"fields\": 3, \"of\": 40, \"share\": 0.5}) or null, not \(value.kindDescription)")
      ])
    }
    var config = NarrowReadsConfig()
    var of: Int?
    var problems: [GeneratorConfigError.Problem] = []
    for member in object {
      do {
        switch member.key {
        case "fields": config.fields = try int(member.value, "narrowReads.fields")
        case "of": of = try int(member.value, "narrowReads.of")
        case "share": config.share = try number(member.value, "narrowReads.share")
        default:
          problems.append(.init(knob: "narrowReads.\(member.key)", message: "is not a setting of narrowReads; known: fields, of, share"))
        }
      } catch {
        problems += error.problems
      }
    }
    if !problems.isEmpty { throw GeneratorConfigError(problems: problems) }
    return (config, of)
  }

  /// `{"share": 0.5, "maxAge": {"min": 60, "max": 3600}, "zeroShare": 0.02}`, or null for none.
  private static func cacheControl(_ value: JSONValue) throws(GeneratorConfigError) -> CacheControlConfig? {
    if case .null = value { return nil }
    guard case .object(let object) = value else {
      throw GeneratorConfigError(problems: [
        .init(
          knob: "cacheControl",
          message:
            "must be an object ({\"share\": 0.5, \"maxAge\": {\"min\": 60, \"max\": 3600}, \"zeroShare\": 0.02}) or null, not \(value.kindDescription)"
        )
      ])
    }
    var config = CacheControlConfig()
    var problems: [GeneratorConfigError.Problem] = []
    for member in object {
      do {
        switch member.key {
        case "share": config.share = try number(member.value, "cacheControl.share")
        case "zeroShare": config.zeroShare = try number(member.value, "cacheControl.zeroShare")
        case "maxAge": config.maxAge = try bounds(member.value, "cacheControl.maxAge")
        default:
          problems.append(
            .init(knob: "cacheControl.\(member.key)", message: "is not a setting of cacheControl; known: share, maxAge, zeroShare"))
        }
      } catch {
        problems += error.problems
      }
    }
    if !problems.isEmpty { throw GeneratorConfigError(problems: problems) }
    return config
  }

  /// Every knob as JSON, in declaration order: what a `generator` section with all defaults
  /// spelled out looks like, and what results record.
  public var json: JSONObject {
    func bounds(_ bounds: Bounds) -> JSONValue { ["min": .int(bounds.min), "max": .int(bounds.max)] }
    var json: JSONObject = [
      "responses": .int(responses), "operations": .int(operations), "depth": .int(depth),
      "fanOut": .int(fanOut), "listLength": bounds(listLength), "listShare": .double(listShare),
      "types": .int(types), "fieldsPerType": .int(fieldsPerType), "poolSize": .int(poolSize),
      "duplication": .double(duplication), "zipf": .double(zipf), "keyedShare": .double(keyedShare),
      "compositeKeyShare": .double(compositeKeyShare), "interfaces": .int(interfaces),
      "unions": .int(unions), "stringLength": bounds(stringLength),
    ]
    // Only when set: a workload without it records what it recorded before.
    if let config = cacheControl {
      json.append(
        key: "cacheControl",
        value: ["share": .double(config.share), "maxAge": bounds(config.maxAge), "zeroShare": .double(config.zeroShare)])
    }
    if let config = narrowReads {
      // With narrow reads the fields per type are written as their `of`, once.
      json = JSONObject(members: json.filter { $0.key != "fieldsPerType" })
      json.append(key: "narrowReads", value: ["fields": .int(config.fields), "of": .int(fieldsPerType), "share": .double(config.share)])
    }
    return json
  }

  private static func int(_ value: JSONValue, _ knob: String) throws(GeneratorConfigError) -> Int {
    if case .int(let int) = value { return int }
    if case .double(let double) = value, double == double.rounded(), abs(double) < 1e15 { return Int(double) }
    throw GeneratorConfigError(problems: [
      .init(knob: knob, message: "must be an integer, not \(value.kindDescription)")
    ])
  }

  private static func number(_ value: JSONValue, _ knob: String) throws(GeneratorConfigError) -> Double {
    switch value {
    case .int(let int): return Double(int)
    case .double(let double): return double
    default:
      throw GeneratorConfigError(problems: [
        .init(knob: knob, message: "must be a number, not \(value.kindDescription)")
      ])
    }
  }

  private static func bounds(_ value: JSONValue, _ knob: String) throws(GeneratorConfigError) -> Bounds {
    if case .object(let object) = value {
      var problems: [GeneratorConfigError.Problem] = []
      for key in object.keys where key != "min" && key != "max" {
        problems.append(.init(knob: "\(knob).\(key)", message: "is not a range end; use min and max"))
      }
      var ends: [Int] = []
      for end in ["min", "max"] {
        guard let endValue = object[end] else {
          problems.append(.init(knob: "\(knob).\(end)", message: "is missing"))
          continue
        }
        do { ends.append(try int(endValue, "\(knob).\(end)")) } catch { problems += error.problems }
      }
      if !problems.isEmpty { throw GeneratorConfigError(problems: problems) }
      return Bounds(ends[0], ends[1])
    }
    if case .int(let int) = value { return Bounds(int, int) }
    throw GeneratorConfigError(
      problems: [
        .init(knob: knob, message: "must be {\"min\": a, \"max\": b} or an integer, not \(value.kindDescription)")
      ])
  }
}
