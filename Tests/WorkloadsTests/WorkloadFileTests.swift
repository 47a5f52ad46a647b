import Foundation
import Generator
import GraphQLLanguage
import NormalizedCache
import SQLiteCache
import Testing

@testable import Workloads

/// Writes a workload file into a fresh directory and loads it, checked as `validate` checks it
/// (the module's tests share it).
func load(_ text: String, file: String = "w.json", extraFiles: [String: String] = [:]) throws -> Workload {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("workload-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  for (name, contents) in extraFiles {
    try contents.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
  }
  let path = directory.appendingPathComponent(file).path
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  let workload = try Workload.load(path)
  try WorkloadChecker.check(workload)
  return workload
}

/// The error's text with the temporary directory removed.
func message(of error: Error) -> String {
  let text = "\(error)"
  return text.replacingOccurrences(of: #"/[^ ]*/workload-[0-9A-F-]+/"#, with: "", options: .regularExpression)
}

@Suite("Workload files")
struct WorkloadFileTests {
  /// What a cache spec's maker makes: `memory`, `sqlite compact wal normal none`.
  static func description(_ spec: StoreSpec) -> String {
    guard case .cache(let maker) = spec.role else { return spec.kind }
    return maker.description
  }

  @Test("a generator workload with every section reads back as written")
  func generatorWorkload() throws {
    let workload = try load(
      """
      {"name": "w", "seed": 9, "generator": {"responses": 10, "duplication": 0.25, "listLength": {"min": 1, "max": 3}},
       "keys": ["typePolicy", "path"], "resolver": "interface-group",
       "stores": [{"kind": "memory", "label": "mem"}, {"kind": "sqlite", "layout": "apollo", "journal": "delete", "synchronous": "full", "location": ":memory:"}],
       "sweep": {"generator.duplication": [0, 0.9]}, "repetitions": 4, "warmup": 2,
       "read": {"verify": false, "pointLookups": 5, "fieldPolicyLookups": 6}}
      """)
    #expect(workload.name == "w")
    #expect(workload.seed == 9)
    #expect(workload.keys.map(\.name) == ["typePolicy", "path"])
    #expect(workload.resolver == "interface-group")
    #expect(workload.stores.map(\.label) == ["mem", "sqlite"])
    #expect(workload.stores.map(\.kind) == ["memory", "sqlite"])
    #expect(workload.stores.map(\.keyPath) == ["stores[0]", "stores[1]"])
    #expect(workload.stores.map(Self.description) == ["memory", "sqlite apollo delete full none :memory:"])
    #expect(workload.repetitions == 4)
    #expect(workload.warmup == 2)
    #expect(workload.read.verify == false)
    #expect(workload.read.pointLookups == 5)
    let variants = workload.variants
    #expect(variants.map(\.name) == ["duplication=0", "duplication=0.9"])
    guard case .generator(let config) = variants[1].source else {
      Issue.record("not a generator")
      return
    }
    #expect(config.duplication == 0.9)
    #expect(config.responses == 10)
    #expect(config.listLength == GeneratorConfig.Bounds(1, 3))
  }

  @Test("defaults: all three strategies, the id resolver, memory and SQLite, 3 repetitions after 1 warm-up")
  func defaults() throws {
    let workload = try load(#"{"name": "w", "seed": 1, "storeRecords": {}}"#)
    #expect(workload.keys.map(\.name) == ["path", "typePolicy", "programmatic"])
    #expect(workload.keys.map(\.kind) == [.path, .typePolicy, .programmatic])
    #expect(workload.resolver == "id")
    #expect(workload.stores.map(Self.description) == ["memory", "sqlite compact wal normal none"])
    #expect(workload.stores.map(\.label) == ["memory", "sqlite"])
    #expect(workload.repetitions == 3)
    #expect(workload.warmup == 1)
  }

  @Test("Apollo's Tier-2 scenarios default to their harness's iterations, 50 after 5 warm-ups, and --quick runs one")
  func apolloTier2() throws {
    let workload = try load(#"{"name": "w", "seed": 1, "apolloTier2": {}}"#)
    #expect(workload.source.kindName == "apolloTier2")
    #expect(workload.repetitions == 50)
    #expect(workload.warmup == 5)
    let quick = workload.quick()
    #expect(quick.repetitions == 1)
    #expect(quick.warmup == 0)
    let chosen = try load(#"{"name": "w", "seed": 1, "apolloTier2": {}, "repetitions": 20, "warmup": 0}"#)
    #expect(chosen.repetitions == 20)
    #expect(chosen.warmup == 0)
    guard case .apolloTier2(let config) = workload.source else { return }
    #expect(config.sizes.isEmpty)
  }

  @Test("Apollo's Tier-2 scenarios at store sizes: in the file's order; --quick keeps those of 10,000 records or fewer")
  func apolloTier2Sizes() throws {
    func sizes(_ workload: Workload) -> [[Int]] {
      guard case .apolloTier2(let config) = workload.source else { return [] }
      return config.sizes.map { [$0.records, $0.fields] }
    }
    let workload = try load(#"{"name": "w", "seed": 1, "apolloTier2": {"sizes": [[100, 5], [1000, 10], [10000, 10], [500000, 10]]}}"#)
    #expect(sizes(workload) == [[100, 5], [1_000, 10], [10_000, 10], [500_000, 10]])
    #expect(sizes(workload.quick()) == [[100, 5], [1_000, 10], [10_000, 10]])
    // Only large sizes: --quick keeps the smallest, and so cannot fit a growth.
    let large = try load(#"{"name": "w", "seed": 1, "apolloTier2": {"sizes": [[500000, 10], [20000, 10]]}}"#)
    #expect(sizes(large.quick()) == [[20_000, 10]])
  }

  @Test("the list scenarios default to sizes 10, 100 and 1,000 at position 0.5, iterations as Apollo's; --quick keeps the sizes")
  func lists() throws {
    /// The list settings of a workload's source; nil (recorded as an issue) for another source.
    func settings(_ workload: Workload) -> ListsConfig? {
      guard case .lists(let config) = workload.source else {
        Issue.record("\(workload.source.kindName) is not lists")
        return nil
      }
      return config
    }
    let workload = try load(#"{"name": "w", "seed": 1, "lists": {}}"#)
    #expect(workload.source.kindName == "lists")
    #expect(workload.repetitions == 50 && workload.warmup == 5)
    #expect(settings(workload)?.sizes == [10, 100, 1_000] && settings(workload)?.position == 0.5)
    let quick = workload.quick()
    #expect(settings(quick)?.sizes == [10, 100, 1_000] && quick.repetitions == 1 && quick.warmup == 0)
    let chosen = try load(#"{"name": "w", "seed": 1, "lists": {"sizes": [7, 1, 100000], "position": 1}, "repetitions": 2}"#)
    #expect(settings(chosen)?.sizes == [7, 1, 100_000] && settings(chosen)?.position == 1)
    #expect(chosen.repetitions == 2 && chosen.warmup == 5)
  }

  @Test(
    "the changed element K is floor(N × position), the last one at 1, decimal positions as written",
    arguments: [(10, 0.5, 5), (1_000, 0.5, 500), (7, 0.5, 3), (1, 0.5, 0), (10, 0, 0), (10, 1, 9), (100, 0.29, 29), (3, 0.999, 2)])
  func changedIndex(size: Int, position: Double, expected: Int) {
    var config = ListsConfig()
    config.position = position
    #expect(config.changedIndex(size: size) == expected)
  }

  @Test("concurrency: the hot run reads among the most popular operation by default, or as many as hotOperations says")
  func hotOperations() throws {
    let plain = try load(#"{"name": "w", "seed": 1, "generator": {}, "concurrency": {"readers": [1, 2]}}"#)
    #expect(plain.concurrency?.hotOperations == 1)
    #expect(plain.concurrency?.readers == [1, 2])
    let wider = try load(#"{"name": "w", "seed": 1, "generator": {}, "concurrency": {"operations": 400, "hotOperations": 8}}"#)
    #expect(wider.concurrency?.hotOperations == 8)
    #expect(wider.concurrency?.operations == 400)
  }

  @Test("\"limits\": true adds the limit stores after the file's; off by default")
  func limits() throws {
    let plain = try load(#"{"name": "w", "seed": 1, "generator": {}, "stores": [{"kind": "memory", "label": "limit-ok"}]}"#)
    #expect(plain.limits == false)
    #expect(plain.measuredStores.map(\.label) == ["limit-ok"])
    let limited = try load(#"{"name": "w", "seed": 1, "generator": {}, "limits": true}"#)
    #expect(limited.measuredStores.map(\.label) == ["memory", "sqlite", "limit-dictionary", "limit-sqlite"])
    #expect(limited.measuredStores.map(\.isLimit) == [false, false, true, true])
    #expect(limited.stores.map(\.limit) == [.dictionary, .sqlite])
  }

  @Test("\"limits\": \"layouts\" measures each SQLite store against its layout's floor, one floor per layout and mode")
  func layoutFloors() throws {
    let workload = try load(
      #"""
      {"name": "w", "seed": 1, "apolloTier2": {}, "limits": "layouts", "stores": [{"kind": "memory"},
        {"kind": "sqlite", "layout": "apollo", "journal": "delete", "synchronous": "full", "label": "a"},
        {"kind": "sqlite", "layout": "rows-rowid", "journal": "delete", "synchronous": "full", "label": "r"},
        {"kind": "sqlite", "layout": "apollo", "journal": "delete", "synchronous": "full", "label": "a2"},
        {"kind": "sqlite", "layout": "compact", "location": ":memory:", "label": "m"}]}
      """#)
    #expect(
      workload.measuredStores.map(\.label) == [
        "memory", "a", "r", "a2", "m", "limit-dictionary", "limit-apollo-delete-full", "limit-rows-rowid-delete-full",
        "limit-sqlite",
      ])
    // A database in memory has no floor on file: it keeps the plain limit.
    let apollo = LayoutFloor(layout: .apollo, journal: .delete, synchronous: .full)
    #expect(
      workload.measuredStores.prefix(5).map(\.limit) == [
        .dictionary, .floor(apollo), .floor(LayoutFloor(layout: .rowsRowid, journal: .delete, synchronous: .full)), .floor(apollo), .sqlite,
      ])
  }

  @Test("a SQLite store opened as Apollo opens it: its floor opened alike, under a label of its own; each setting alone")
  func openedAsApollo() throws {
    let workload = try load(
      #"""
      {"name": "w", "seed": 1, "apolloTier2": {}, "limits": "layouts", "stores": [
        {"kind": "sqlite", "layout": "compact", "journal": "delete", "synchronous": "full", "label": "c"},
        {"kind": "sqlite", "layout": "compact", "journal": "delete", "synchronous": "full", "openedAs": "apollo", "label": "c-as-apollo"},
        {"kind": "sqlite", "layout": "rows", "journal": "delete", "synchronous": "full", "mmapBytes": 4096, "pageCacheKiB": 100, "mutex": "fullmutex", "label": "r"}]}
      """#)
    #expect(
      workload.measuredStores.map(\.label) == [
        "c", "c-as-apollo", "r", "limit-compact-delete-full", "limit-compact-delete-full-mmap0-fullmutex",
        "limit-rows-delete-full-mmap4096-cache100-fullmutex",
      ])
    let descriptions = workload.stores.map { store -> String in
      guard case .cache(let maker) = store.role else { return "" }
      return maker.description
    }
    #expect(
      descriptions == [
        "sqlite compact delete full none", "sqlite compact delete full none (mmap 0 cache 2000 KiB fullmutex)",
        "sqlite rows delete full none (mmap 4096 cache 100 KiB fullmutex)",
      ])
  }

  @Test("a recorded workload resolves its files against its own directory")
  func recorded() throws {
    let workload = try load(
      #"{"name": "r", "seed": 1, "recorded": {"schema": [], "operations": [{"document": "q.graphql", "response": "r.json", "variables": {"x": 1}}]}}"#,
      extraFiles: ["q.graphql": "query Q($x: Int) { a(x: $x) }", "r.json": #"{"data": {"a": 2}}"#])
    guard case .recorded(let recorded) = workload.source else {
      Issue.record("not recorded")
      return
    }
    #expect(recorded.operations[0].documents[0].hasSuffix("/q.graphql"))
    #expect(recorded.operations[0].variables == ["x": 1])
  }

  @Test(
    "bad workload files name the file, line, column and key path",
    arguments: [
      (#"{"name": "w", "seed": 1, "generator": {}, "colour": "red"}"#, "w.json:1:43: colour: unknown key"),
      (#"{"name": "w", "seed": 1, "generator": {}, "store": []}"#, #"w.json:1:43: store: unknown key; did you mean "stores"?"#),
      (#"{"name": "w", "seed": "one", "generator": {}}"#, "w.json:1:15: seed: must be an integer, not a string"),
      (#"{"seed": 1, "generator": {}}"#, "w.json: name: is required"),
      (
        #"{"name": "w", "seed": 1}"#,
        #"w.json: needs one of "generator", "recorded", "storeRecords", "apolloTier2", "apolloTier3" or "lists""#
      ),
      (#"{"name": "w", "seed": 1, "apolloTier2": {}, "lists": {}}"#, #"w.json: has both "apolloTier2" and "lists"; give one"#),
      (#"{"name": "w", "seed": 1, "lists": []}"#, "w.json:1:26: lists: must be an object, not an array"),
      (#"{"name": "w", "seed": 1, "lists": {"size": [10]}}"#, #"w.json:1:36: lists.size: unknown key; did you mean "sizes"?"#),
      (#"{"name": "w", "seed": 1, "lists": {"sizes": []}}"#, "w.json:1:36: lists.sizes: must name at least one list size"),
      (
        #"{"name": "w", "seed": 1, "lists": {"sizes": [10, 0]}}"#,
        "w.json:1:36: lists.sizes: element 1 must be a list size from 1 to 100000, got 0"
      ),
      (
        #"{"name": "w", "seed": 1, "lists": {"sizes": [100001]}}"#,
        "w.json:1:36: lists.sizes: element 0 must be a list size from 1 to 100000, got 100001"
      ),
      (
        #"{"name": "w", "seed": 1, "lists": {"sizes": ["10"]}}"#,
        "w.json:1:36: lists.sizes: element 0 must be a list size from 1 to 100000, got a string"
      ),
      (#"{"name": "w", "seed": 1, "lists": {"sizes": [10, 10]}}"#, "w.json:1:36: lists.sizes: element 1: 10 is there already"),
      (#"{"name": "w", "seed": 1, "lists": {"position": 1.5}}"#, "w.json:1:36: lists.position: must be between 0 and 1, got 1.5"),
      (#"{"name": "w", "seed": 1, "lists": {"position": "half"}}"#, "w.json:1:36: lists.position: must be a number, not a string"),
      (#"{"name": "w", "seed": 1, "lists": {}, "traffic": {}}"#, "w.json:1:39: traffic: the list scenarios read no operations"),
      (
        #"{"name": "w", "seed": 1, "lists": {"sizes": [100000]}, "repetitions": 1000, "warmup": 1000}"#,
        "w.json: lists.sizes: 2000 iterations writing lists of 100000 elements would keep about 3 GB in one store; the limit is 2 GB: pass --allow-large to run it anyway"
      ),
      (
        #"{"name": "w", "seed": 1, "storeRecords": {}, "apolloTier2": {}}"#, #"w.json: has both "storeRecords" and "apolloTier2"; give one"#
      ),
      (#"{"name": "w", "seed": 1, "apolloTier2": {"count": 5}}"#, "w.json:1:42: apolloTier2.count: unknown key"),
      (#"{"name": "w", "seed": 1, "apolloTier2": []}"#, "w.json:1:26: apolloTier2: must be an object, not an array"),
      (#"{"name": "w", "seed": 1, "apolloTier2": {"size": []}}"#, #"w.json:1:42: apolloTier2.size: unknown key; did you mean "sizes"?"#),
      (#"{"name": "w", "seed": 1, "apolloTier2": {"sizes": 5}}"#, "w.json:1:42: apolloTier2.sizes: must be an array, not an integer"),
      (
        #"{"name": "w", "seed": 1, "apolloTier2": {"sizes": [[10, 5], [100]]}}"#,
        "w.json:1:42: apolloTier2.sizes: element 1 must be a pair [records, fields] of whole numbers, got [100]"
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier2": {"sizes": [[0, 5], [100, 5]]}}"#,
        "w.json:1:42: apolloTier2.sizes: element 0: records must be from 1 to 10000000, got 0"
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier2": {"sizes": [[10, 5], [100, 1001]]}}"#,
        "w.json:1:42: apolloTier2.sizes: element 1: fields must be from 1 to 1000, got 1001"
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier2": {"sizes": [[10, 5], [10, 10]]}}"#,
        "w.json:1:42: apolloTier2.sizes: element 1: a size of 10 records is there already"
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier2": {"sizes": [[10, 5]]}}"#,
        "w.json:1:42: apolloTier2.sizes: must name two sizes at least, to fit a growth over them; got 1"
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier3": {"sizes": []}, "stores": [{"kind": "sqlite"}]}"#,
        #"w.json:1:42: apolloTier3.sizes: must name two sizes at least, to fit a growth over them; got 0"#
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier3": {"sizes": [[1000, 10]]}, "stores": [{"kind": "sqlite"}]}"#,
        #"w.json:1:42: apolloTier3.sizes: must name two sizes at least, to fit a growth over them; got 1"#
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier3": {"sizes": [[1000, 10], [1000, 5]]}, "stores": [{"kind": "sqlite"}]}"#,
        #"w.json:1:42: apolloTier3.sizes: element 1: a size of 1000 records is there already"#
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier3": {"sizes": [[0, 5], [1000, 10]]}, "stores": [{"kind": "sqlite"}]}"#,
        #"w.json:1:42: apolloTier3.sizes: element 0: records must be from 10 to 10000000, got 0"#
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier3": {"sizes": [[100, 5], [1000, 11]]}, "stores": [{"kind": "sqlite"}]}"#,
        #"w.json:1:42: apolloTier3.sizes: element 1: fields must be from 4 to 10, got 11"#
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier3": {"sizes": [[100, 3], [1000, 10]]}, "stores": [{"kind": "sqlite"}]}"#,
        #"w.json:1:42: apolloTier3.sizes: element 0: fields must be from 4 to 10, got 3"#
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier3": {"sizes": [[100, 5], [1000]]}, "stores": [{"kind": "sqlite"}]}"#,
        #"w.json:1:42: apolloTier3.sizes: element 1 must be a pair [records, fields] of whole numbers, got [1000]"#
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier3": {"sizes": [[100, 5.5], [1000, 10]]}, "stores": [{"kind": "sqlite"}]}"#,
        #"w.json:1:42: apolloTier3.sizes: element 0 must be a pair [records, fields] of whole numbers, got [100,5.5]"#
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier3": {"sizes": [[100, 5], [1000, 10]], "records": 1000}, "stores": [{"kind": "sqlite"}]}"#,
        #"w.json:1:42: apolloTier3.sizes: give "records" (one store) or "sizes" (several), not both"#
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier3": {"sizes": 500000}, "stores": [{"kind": "sqlite"}]}"#,
        #"w.json:1:42: apolloTier3.sizes: must be an array, not an integer"#
      ),
      (
        "{\"name\": \"w\", \"seed\": 1,\n \"generator\": {\"duplication\": 1.5}}",
        "w.json:2:16: generator.duplication: must be in 0...1, got 1.5"
      ),
      (
        "{\"name\": \"w\", \"seed\": 1,\n \"generator\": {\"depht\": 3}}",
        "w.json:2:16: generator.depht: is not a generator knob; known knobs: responses, operations, depth, fanOut, listLength, listShare, types, fieldsPerType, poolSize, duplication, zipf, keyedShare, compositeKeyShare, interfaces, unions, stringLength, cacheControl, narrowReads"
      ),
      (
        "{\"name\": \"w\", \"seed\": 1, \"generator\": {},\n \"stores\": [{\"kind\": \"memory\"}, {\"kind\": \"redis\"}]}",
        "w.json:2:34: stores[1].kind: unknown store kind \"redis\"; known kinds: chain, memory, sqlite (a package using the workbench registers its own)"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "stores": [{"kind": "memory", "maxSizeBytes": 50000, "policy": "random"}]}"#,
        #"w.json:1:96: stores[0].policy: must be one of lru, fifo, lfu, got "random""#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "stores": [{"kind": "memory", "maxSizeBytes": 64}]}"#,
        "w.json:1:73: stores[0].maxSizeBytes: 64 bytes is smaller than one record: this store counts 144 bytes per record beyond its key and fields"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "stores": [{"kind": "sqlite", "maxSizeBytes": "0%"}]}"#,
        #"w.json:1:73: stores[0].maxSizeBytes: a share must be a percentage above 0 and at most 1000%, got "0%""#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "stores": [{"kind": "memory", "policy": "lfu"}]}"#,
        #"w.json:1:73: stores[0].policy: needs "maxSizeBytes" (or "expireAfterSteps"): an unbounded store evicts nothing"#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "stores": [{"kind": "chain", "front": {"kind": "sqlite"}, "back": {"kind": "sqlite"}}]}"#,
        #"w.json:1:82: stores[0].front.kind: must be memory: the chain's front is an in-memory store, got "sqlite""#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "stores": [{"kind": "chain", "front": {"kind": "memory", "maxSizeBytes": "10%"}, "back": {"kind": "sqlite", "expireAfterSteps": 50}}]}"#,
        "w.json:1:72: stores[0].front: needs an expireAfterSteps of at most the back's 50: the front serves its copies without asking the back, which would hand out records the back has expired"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "stores": [{"kind": "memory", "maxSizeBytez": 5}]}"#,
        #"w.json:1:73: stores[0].maxSizeBytez: unknown key; did you mean "maxSizeBytes"?"#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "sweep": {"stores.maxSizeBytes": ["10%"]}}"#,
        #"w.json:1:53: sweep.stores.maxSizeBytes: no store has a "maxSizeBytes" to sweep"#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "keys": ["programmatic:isbn"]}"#,
        #"w.json:1:43: keys: unknown key resolver "isbn"; known resolvers: id, interface-group, seed-books"#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "traffic": {"steps": 0}}"#,
        "w.json:1:55: traffic.steps: must be between 1 and 100000000, got 0"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "concurrency": {"readers": [1, 0]}}"#,
        "w.json:1:59: concurrency.readers: element 1 must be a number of reader threads from 1 to 256, got 0"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "concurrency": {"readers": [2, 2]}}"#,
        "w.json:1:59: concurrency.readers: element 1: 2 readers are there already"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "concurrency": {"hotOperations": 0}}"#,
        "w.json:1:59: concurrency.hotOperations: must be between 1 and 1000000, got 0"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "concurrency": {"reader": [2]}}"#,
        #"w.json:1:59: concurrency.reader: unknown key; did you mean "readers"?"#
      ),
      (
        #"{"name": "w", "seed": 1, "storeRecords": {}, "concurrency": {}}"#,
        "w.json:1:46: concurrency: the store-level benchmark reads no operations"
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier2": {}, "traffic": {}}"#,
        "w.json:1:45: traffic: Apollo's Tier-2 scenarios read no operations"
      ),
      (
        #"{"name": "w", "seed": 1, "apolloTier2": {}, "read": {"watchers": 1}}"#,
        "w.json:1:54: read.watchers: Apollo's Tier-2 scenarios read no operations"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "stores": [{"kind": "sqlite", "openedAs": "ios"}]}"#,
        #"w.json:1:73: stores[0].openedAs: must be one of cachebench, apollo, got "ios""#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "stores": [{"kind": "sqlite", "mutex": "serialized"}]}"#,
        #"w.json:1:73: stores[0].mutex: must be one of nomutex, fullmutex, got "serialized""#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "stores": [{"kind": "sqlite", "mmapBytes": -1}]}"#,
        "w.json:1:73: stores[0].mmapBytes: must be between 0 and 1099511627776, got -1"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "stores": [{"kind": "sqlite", "pageCacheKiB": 0}]}"#,
        "w.json:1:73: stores[0].pageCacheKiB: must be between 1 and 1073741824, got 0"
      ),
      (
        "{\"name\": \"w\", \"seed\": 1, \"generator\": {},\n \"stores\": [{\"kind\": \"sqlite\", \"journal\": \"wall\"}]}",
        "w.json:2:32: stores[0].journal: must be one of delete, truncate, persist, memory, wal, off, got \"wall\""
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "keys": ["path", "byId"]}"#,
        "w.json:1:43: keys: element 1 must be path, typePolicy, programmatic or programmatic:<resolver>, got byId"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "resolver": "isbn"}"#,
        #"w.json:1:43: resolver: unknown key resolver "isbn"; known resolvers: id, interface-group, seed-books"#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "fieldPolicyProvider": "heroes"}"#,
        #"w.json:1:43: fieldPolicyProvider: unknown field-policy provider "heroes"; none is registered (a package using the workbench registers its own)"#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "read": {"churn": 1.5}}"#,
        "w.json:1:52: read.churn: must be between 0 and 1, got 1.5"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "sweep": {"generator.duplication": [0, 2]}}"#,
        "w.json:1:53: sweep.generator.duplication: must be in 0...1, got 2.0"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "repetitions": 0}"#,
        "w.json:1:43: repetitions: must be between 1 and 1000, got 0"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "limits": "yes"}"#,
        #"w.json:1:43: limits: must be true, false or "layouts", not "yes""#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "limits": "layouts"}"#,
        #"w.json:1:43: limits: "layouts" measures the SQLite layouts' floors on Apollo's Tier-2 or Tier-3 scenarios: it needs "apolloTier2" or "apolloTier3""#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "limits": true, "stores": [{"kind": "memory", "label": "limit-x"}]}"#,
        #"w.json:1:89: stores[0].label: "limit-x": labels starting "limit-" name the limit stores of "limits""#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "read": {"verify": "yes"}}"#,
        "w.json:1:52: read.verify: must be true or false, not a string"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "stores": [{"kind": "memory", "dates": "yes"}]}"#,
        "w.json:1:73: stores[0].dates: must be true or false, not a string"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "stores": [{"kind": "chain", "front": {"kind": "memory"}, "back": {"kind": "sqlite", "dates": true}}]}"#,
        #"w.json:1:128: stores[0].back.dates: goes on the chain itself: a write goes to both parts, dated alike"#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "traffic": {"secondsPerStep": 0}}"#,
        "w.json:1:55: traffic.secondsPerStep: must be between 1 and 2147483647, got 0"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "traffic": {"startAt": -1}}"#,
        "w.json:1:55: traffic.startAt: must be between 0 and 253402300799, got -1"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "traffic": {"ttl": "lenient"}}"#,
        #"w.json:1:55: traffic.ttl: must be one of strict, permissive, got "lenient""#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "sweep": {"traffic.secondsPerStep": [60]}}"#,
        #"w.json:1:53: sweep.traffic.secondsPerStep: a sweep of the traffic needs a "traffic" section"#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "traffic": {}, "sweep": {"traffic.secondsPerStep": [60, 0]}}"#,
        "w.json:1:68: sweep.traffic.secondsPerStep: value 1 (0): must be between 1 and 2147483647, got 0"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "traffic": {}, "sweep": {"traffic.ttl": ["strict", "lax"]}}"#,
        #"w.json:1:68: sweep.traffic.ttl: value 1 (lax): must be one of strict, permissive, got "lax""#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "traffic": {}, "sweep": {"traffic.step": [10, 20]}}"#,
        #"w.json:1:68: sweep.traffic.step: is not a key of "traffic"; did you mean "traffic.steps"?"#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "sweep": {"stores.label": ["a"]}}"#,
        #"w.json:1:53: sweep.stores.label: is not a knob; write "generator.<knob>" (knobs: responses, operations, depth, fanOut, listLength, listShare, types, fieldsPerType, poolSize, duplication, zipf, keyedShare, compositeKeyShare, interfaces, unions, stringLength, cacheControl, narrowReads), "stores.maxSizeBytes", "read.<key>" (keys: verify, pointLookups, fieldPolicyLookups, fragments, watchers, churn, projectedReads) or "traffic.<key>" (keys: steps, zipf, refetchShare, churn, watchers, gc, secondsPerStep, startAt, ttl, refreshOnExpiry)"#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {"narrowReads": {"fields": 3, "share": 1.5}}}"#,
        "w.json:1:69: generator.narrowReads.share: must be in 0...1, got 1.5"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {"narrowReads": {}}}"#,
        "w.json: read.verify: must be false with generator.narrowReads: each list reads page 1 again with new elements, so a later list changes what an earlier one reads back"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {}, "sweep": {"generator.narrowReads": [{"fields": 1}]}, "read": {"verify": true}}"#,
        "w.json:1:105: read.verify: must be false with generator.narrowReads: each list reads page 1 again with new elements, so a later list changes what an earlier one reads back"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {"narrowReads": {"fields": 3, "of": 2}}}"#,
        "w.json:1:56: generator.narrowReads.fields: must be in 1...2 (narrowReads.of), got 3"
      ),
      ("{\"name\": \"w\",\n \"seed\": 1, }", "w.json:2:13: Expected a string key in an object, found '}'"),
      ("[1]", "w.json: a workload must be a JSON object, not an array"),
    ])
  func badFiles(text: String, expected: String) {
    let error = #expect(throws: (any Error).self) { try load(text) }
    #expect(error.map(message(of:)) == expected)
  }

  @Test("a recorded workload naming a missing response is an input error (66) at its key")
  func missingResponse() {
    let error = #expect(throws: WorkloadError.self) {
      try load(
        #"{"name": "r", "seed": 1, "recorded": {"operations": [{"document": "q.graphql", "response": "gone.json"}]}}"#,
        extraFiles: ["q.graphql": "{ a }"])
    }
    #expect(error?.exitCode == .noInput)
    #expect(error.map(message(of:)) == "w.json: recorded.operations[0].response: cannot open 'gone.json': No such file or directory")
  }

  @Test("a recorded response that does not fit its operation is bad data (65) naming the response")
  func responseMismatch() {
    let error = #expect(throws: WorkloadError.self) {
      try load(
        #"{"name": "r", "seed": 1, "recorded": {"operations": [{"document": "q.graphql", "response": "r.json"}]}}"#,
        extraFiles: ["q.graphql": "{ a { b } }", "r.json": #"{"a": {"c": 1}}"#])
    }
    #expect(error?.exitCode == .dataError)
    #expect(error.map(message(of:)) == #"w.json: recorded.operations[0]: r.json: missing field "b" at data.a"#)
  }

  @Test("the traffic's clock without a store with dates: a warning per setting, given or swept, at its key")
  func datelessClock() throws {
    let head = #"{"name": "t", "seed": 2, "generator": {"responses": 3}, "keys": ["path"], "stores": [{"kind": "memory"}"#
    let workload = try load(
      head + "],\n \"traffic\": {\"steps\": 100, \"secondsPerStep\": 10, \"ttl\": \"permissive\", \"startAt\": 5, \"gc\": true},\n"
        + #" "sweep": {"traffic.ttl": ["strict", "permissive"]}}"#)
    let why = #"changes nothing here: it needs a store with "dates": true, and no store of this workload has dates"#
    #expect(
      workload.warnings.map { $0.replacingOccurrences(of: #"^/[^ ]*/workload-[0-9A-F-]+/"#, with: "", options: .regularExpression) } == [
        "w.json:2:28: traffic.secondsPerStep: \(why)", "w.json:2:50: traffic.ttl: \(why)", "w.json:2:71: traffic.startAt: \(why)",
        "w.json:3:12: sweep.traffic.ttl: \(why)",
      ])
    // One store with dates, or no clock setting given: nothing to say.
    #expect(try load(head + #", {"kind": "memory", "dates": true, "label": "dated"}], "traffic": {"ttl": "permissive"}}"#).warnings.isEmpty)
    #expect(try load(head + #"], "traffic": {"steps": 100, "ttl": null}}"#).warnings.isEmpty)
    // refreshOnExpiry times what expires: without dates, nothing does.
    #expect(
      try load(head + "],\n \"traffic\": {\"refreshOnExpiry\": true}}").warnings.map {
        $0.replacingOccurrences(of: #"^/[^ ]*/workload-[0-9A-F-]+/"#, with: "", options: .regularExpression)
      } == ["w.json:2:14: traffic.refreshOnExpiry: \(why)"])
  }

  @Test("every shipped workload is valid")
  func shippedWorkloads() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let names = [
      "quick", "gate", "default", "large", "duplication-sweep", "calendar", "store-records", "concurrency", "hot-records", "soak",
      "ttl-default", "ttl-small", "ttl-calendar", "ttl-watchers", "layouts", "lists",
      "layouts-narrow", "narrow-reads", "narrow-reads-projected", "narrow-lists",
      "narrow-lists-projected", "apollo-tier2-growth", "apollo-tier2", "apollo-tier3", "apollo-tier3-both", "apollo-tier3-growth",
    ]
    for name in names {
      let workload = try Workload.load(root.appendingPathComponent("Workloads/\(name).json").path)
      try WorkloadChecker.check(workload)
      #expect(workload.name == name)
      #expect(workload.warnings.isEmpty, "\(name)")
    }
  }
}

/// What the shipped workloads cover, computed from the files rather than claimed in their prose
/// (docs/gate.md#what-the-gate-covers).
@Suite("Workload files: coverage")
struct WorkloadCoverageTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static func shipped(_ name: String) throws -> Workload {
    try Workload.load(root.appendingPathComponent("Workloads/\(name).json").path)
  }

  /// The SQLite layouts of a workload's stores, a chain's back among them.
  static func layouts(_ workload: Workload) -> Set<String> {
    Set(
      workload.stores.compactMap { spec -> String? in
        guard case .cache(let maker) = spec.role, maker.identity.kind == "sqlite" else { return nil }
        return maker.identity.settings.first
      })
  }

  static let everyLayout = Set(SQLiteNormalizedCache.Layout.allCases.map(\.rawValue))
  static let everyKind = Set(StoreKinds.builtIn.names)
  static let everyStrategy: Set<String> = ["path", "typePolicy", "programmatic"]

  @Test(
    "the gate and quick.json run every SQLite layout, every store kind, a bounded store and every key strategy",
    arguments: ["gate", "quick"])
  func gateAndQuick(name: String) throws {
    let workload = try Self.shipped(name)
    #expect(Self.layouts(workload) == Self.everyLayout, "\(name) lacks \(Self.everyLayout.subtracting(Self.layouts(workload)).sorted())")
    #expect(Set(workload.stores.map(\.kind)) == Self.everyKind, "\(name): \(workload.stores.map(\.kind))")
    #expect(Set(workload.keys.map(\.name)).isSuperset(of: Self.everyStrategy))
    let bounded = workload.stores.contains { spec in
      guard case .cache(let maker) = spec.role else { return false }
      return maker.budget != nil
    }
    #expect(bounded, "\(name) has no store with a budget")
  }

  @Test("a shipped workload whose description says \"every SQLite layout\" or \"every store\" runs them")
  func descriptionsThatSayEvery() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Workloads").path)
      .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    #expect(names.count >= 27)
    var checked = 0
    for name in names {
      let workload = try Self.shipped(name)
      let description = workload.description ?? ""
      if description.range(of: "every (store(,| and) )?(SQLite )?layout", options: .regularExpression) != nil {
        checked += 1
        #expect(Self.layouts(workload) == Self.everyLayout, "\(name) says every layout and runs \(Self.layouts(workload).sorted())")
      }
      if description.contains("every store") {
        #expect(Set(workload.stores.map(\.kind)) == Self.everyKind, "\(name) says every store and runs \(workload.stores.map(\.kind))")
      }
      if description.contains("three key strategies") || description.contains("every key strategy") {
        #expect(Set(workload.keys.map(\.name)).isSuperset(of: Self.everyStrategy), "\(name)")
      }
    }
    #expect(checked >= 5)
  }

  @Test("\"layout\": \"all\" is one store a layout labelled <label>-<layout>; \"keys\": \"all\" the three strategies")
  func all() throws {
    let workload = try load(
      #"{"name": "w", "seed": 1, "generator": {}, "keys": "all", "stores": [{"kind": "sqlite", "layout": "all", "journal": "delete"}, {"kind": "sqlite", "layout": "all", "label": "s"}]}"#
    )
    #expect(
      workload.stores.map(\.label) == [
        "sqlite-compact", "sqlite-apollo", "sqlite-rows", "sqlite-rows-rowid", "sqlite-rows-ordered",
        "s-compact", "s-apollo", "s-rows", "s-rows-rowid", "s-rows-ordered",
      ])
    #expect(
      workload.stores.prefix(5).map(WorkloadFileTests.description)
        == SQLiteNormalizedCache.Layout.allCases.map { "sqlite \($0) delete normal none" })
    #expect(workload.keys.map(\.name) == ["path", "typePolicy", "programmatic"])
    #expect(throws: WorkloadError.self) { try load(#"{"name": "w", "seed": 1, "generator": {}, "keys": "every"}"#) }
    do {
      _ = try load(#"{"name": "w", "seed": 1, "generator": {}, "keys": "every"}"#)
    } catch {
      #expect(message(of: error) == #"w.json:1:43: keys: must be "all" or an array of strategies, not "every""#)
    }
  }
}

/// A library user's resolvers and field-policy providers, registered in a ``Registry``.
@Suite("Workload files: a registry of one's own")
struct WorkloadRegistryTests {
  struct Heroes: FieldPolicyProvider {
    func cacheKey(for field: FieldPolicyField, inputData: JSONObject, path: [String]) -> CacheKeyInfo? {
      inputData["name"]?.stringValue.map { CacheKeyInfo(id: $0) }
    }
  }

  @Test("a workload names a registered resolver and field-policy provider; the built-in registry knows neither")
  func registered() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("w.json").path
    try #"{"name": "w", "seed": 1, "generator": {}, "resolver": "sku", "fieldPolicyProvider": "heroes"}"#
      .write(toFile: path, atomically: true, encoding: .utf8)
    var registry = Registry.builtIn
    registry.resolvers.register("sku") { _, object in object.string("sku").map { CacheKeyInfo(id: $0) } }
    registry.fieldPolicyProviders.register("heroes", Heroes())
    let workload = try Workload.load(path, registry: registry)
    #expect(workload.resolver == "sku")
    #expect(workload.fieldPolicyProvider?.name == "heroes")
    let field = FieldPolicyField(parentType: "Query", name: "hero", returnTypeName: "Hero", returnsList: false)
    #expect(workload.fieldPolicyProvider?.provider.cacheKey(for: field, inputData: ["name": "Luke"], path: []) == CacheKeyInfo(id: "Luke"))
    guard case .programmatic(let resolver)? = workload.keys.last?.strategy else {
      Issue.record("the last strategy is not programmatic")
      return
    }
    #expect(resolver(ObjectType(name: "Product"), ObjectData(["sku": "A1"])) == CacheKeyInfo(id: "A1"))
    #expect(throws: WorkloadError.self) { try Workload.load(path) }
  }
}

@Suite("Workload files: dates and the session's clock (docs/ttl.md)")
struct DatedWorkloadTests {
  @Test("\"dates\" is off by default and on where a store says, a chain's for its whole")
  func dates() throws {
    let workload = try load(
      #"""
      {"name": "w", "seed": 1, "generator": {"responses": 4},
       "stores": [{"kind": "memory"}, {"kind": "memory", "dates": true, "label": "dated"}, {"kind": "sqlite", "dates": false},
                  {"kind": "chain", "front": {"kind": "memory"}, "back": {"kind": "sqlite"}, "dates": true}],
       "limits": true}
      """#)
    #expect(workload.measuredStores.map(\.dates) == [false, true, false, true, false, false])
  }

  @Test("the traffic's clock and mode: 60 seconds a step from 2026-01-01, strict, unless the file says otherwise")
  func trafficClock() throws {
    let defaults = try #require(try load(#"{"name": "w", "seed": 1, "generator": {}, "traffic": {}}"#).traffic)
    #expect(defaults.secondsPerStep == 60)
    #expect(defaults.startAt == 1_767_225_600)
    #expect(defaults.ttl == .strict)
    let set = try #require(
      try load(#"{"name": "w", "seed": 1, "generator": {}, "traffic": {"secondsPerStep": 5, "startAt": 0, "ttl": "permissive"}}"#).traffic)
    #expect(set.secondsPerStep == 5)
    #expect(set.startAt == 0)
    #expect(set.ttl == .permissive)
  }

  @Test("a sweep of traffic.secondsPerStep or traffic.ttl makes a variant of each value, the rest of the section kept")
  func trafficSweep() throws {
    let seconds = try load(
      #"{"name": "w", "seed": 1, "generator": {}, "traffic": {"steps": 500, "ttl": "permissive"}, "sweep": {"traffic.secondsPerStep": [1, 3600]}}"#
    )
    let variants = seconds.variants
    #expect(variants.map(\.name) == ["secondsPerStep=1", "secondsPerStep=3600"])
    #expect(variants.map { $0.traffic?.secondsPerStep } == [1, 3_600])
    #expect(variants.allSatisfy { $0.traffic?.ttl == .permissive && $0.traffic?.steps == 500 })
    // --quick shrinks the steps of every point, and keeps each point's value.
    let quick = seconds.quick().variants
    #expect(quick.map { $0.traffic?.steps } == [100, 100])
    #expect(quick.map { $0.traffic?.secondsPerStep } == [1, 3_600])
    let modes = try load(#"{"name": "w", "seed": 1, "generator": {}, "traffic": {}, "sweep": {"traffic.ttl": ["strict", "permissive"]}}"#)
    #expect(modes.variants.map(\.name) == ["ttl=strict", "ttl=permissive"])
    #expect(modes.variants.map { $0.traffic?.ttl } == [.strict, .permissive])
  }

  @Test("--quick shrinks a generator sweep's points as their source, but a sweep of responses keeps its values")
  func quickGeneratorSweep() throws {
    func responses(_ workload: Workload) -> [Int?] {
      workload.variants.map { variant in if case .generator(let config) = variant.source { config.responses } else { nil } }
    }
    let duplication = try load(
      #"{"name": "w", "seed": 1, "generator": {"responses": 40}, "sweep": {"generator.duplication": [0.1, 0.9]}}"#)
    #expect(responses(duplication) == [40, 40])
    #expect(responses(duplication.quick()) == [4, 4])
    let counts = try load(#"{"name": "w", "seed": 1, "generator": {"responses": 40}, "sweep": {"generator.responses": [20, 60]}}"#)
    #expect(responses(counts.quick()) == [20, 60])
  }

  @Test("a sweep of generator.narrowReads sets k of n at each point, the names sorted")
  func narrowReadsSweep() throws {
    let workload = try load(
      #"{"name": "w", "seed": 1, "generator": {"responses": 4, "narrowReads": {}}, "read": {"verify": false}, "sweep": {"generator.narrowReads": [{"fields": 1, "of": 40}, {"share": 0.9, "fields": 10}]}}"#
    )
    let variants = workload.variants
    #expect(variants.map(\.name) == ["narrowReads={fields:1,of:40}", "narrowReads={fields:10,share:0.9}"])
    let configs = variants.map { variant -> NarrowReadsConfig? in
      if case .generator(let config) = variant.source { return config.narrowReads }
      return nil
    }
    #expect(configs == [NarrowReadsConfig(fields: 1, share: 0.5), NarrowReadsConfig(fields: 10, share: 0.9)])
    let counts = variants.map { variant -> Int? in
      if case .generator(let config) = variant.source { return config.fieldsPerType }
      return nil
    }
    #expect(counts == [40, 40])
  }

  @Test("a sweep of generator.cacheControl sets the profile of each point")
  func cacheControlSweep() throws {
    let workload = try load(
      #"{"name": "w", "seed": 1, "generator": {"responses": 4}, "sweep": {"generator.cacheControl": [{"share": 0}, {"share": 1, "maxAge": 60}]}}"#
    )
    let variants = workload.variants
    #expect(variants.map(\.name) == ["cacheControl={share:0}", "cacheControl={maxAge:60,share:1}"])
    let configs = variants.map { variant -> CacheControlConfig? in
      if case .generator(let config) = variant.source { return config.cacheControl }
      return nil
    }
    #expect(configs[0]?.share == 0)
    #expect(configs[1]?.share == 1 && configs[1]?.maxAge == GeneratorConfig.Bounds(60, 60) && configs[1]?.zeroShare == 0.02)
  }
}
