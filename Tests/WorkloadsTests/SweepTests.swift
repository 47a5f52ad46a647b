import Foundation
import Testing

@testable import Workloads

/// A sweep of a key of the `read` or `traffic` section (docs/workloads.md#sweep): each point the
/// section as the file gives it with the key at the point's value, decoded and checked as the
/// section itself is, and carried by its variant to the executor.
@Suite("Sweeps of the read and traffic sections")
struct SweepTests {
  @Test("a sweep of read.projectedReads gives two variants, each with its read setting and the rest of the section kept")
  func projectedReads() throws {
    let workload = try load(
      #"{"name": "w", "seed": 1, "generator": {"responses": 4}, "read": {"pointLookups": 300, "watchers": 2}, "sweep": {"read.projectedReads": [false, true]}}"#
    )
    let variants = workload.variants
    #expect(variants.map(\.name) == ["projectedReads=false", "projectedReads=true"])
    #expect(variants.map(\.read.projectedReads) == [false, true])
    #expect(variants.allSatisfy { $0.read.pointLookups == 300 && $0.read.watchers == 2 && $0.read.verify })
    // --quick shrinks the lookups of every point, and keeps each point's value.
    let quick = workload.quick().variants
    #expect(quick.map(\.read.pointLookups) == [100, 100])
    #expect(quick.map(\.read.projectedReads) == [false, true])
    // A sweep of the lookups keeps its values under --quick, or its points would run alike.
    let lookups = try load(#"{"name": "w", "seed": 1, "generator": {"responses": 4}, "sweep": {"read.pointLookups": [500, 2000]}}"#)
    #expect(lookups.quick().variants.map(\.read.pointLookups) == [500, 2_000])
    #expect(lookups.quick().variants.map(\.read.fieldPolicyLookups) == [20, 20])
  }

  @Test("a sweep of a traffic key other than the clock's makes a variant of each value; --quick keeps a sweep of steps")
  func trafficKeys() throws {
    let workload = try load(
      #"{"name": "w", "seed": 1, "generator": {"responses": 4}, "traffic": {"zipf": 0.5}, "sweep": {"traffic.steps": [1000, 5000]}}"#)
    #expect(workload.variants.map(\.name) == ["steps=1000", "steps=5000"])
    #expect(workload.variants.map { $0.traffic?.steps } == [1_000, 5_000])
    #expect(workload.variants.allSatisfy { $0.traffic?.zipf == 0.5 })
    #expect(workload.quick().variants.map { $0.traffic?.steps } == [1_000, 5_000])
    // Not a clock setting: no warning without a store with dates.
    #expect(workload.warnings.isEmpty)
  }

  @Test("a sweep of read.verify sets it at every point: the file's read need not say false beside narrowReads")
  func verifyAtEveryPoint() throws {
    let workload = try load(
      #"{"name": "w", "seed": 1, "generator": {"responses": 4, "narrowReads": {}}, "sweep": {"read.verify": [false]}}"#)
    #expect(workload.variants.map(\.read.verify) == [false])
  }

  /// A file whose sweep sets `key` to `values`, with a traffic section.
  static func file(_ key: String, _ values: String) -> String {
    #"{"name": "w", "seed": 1, "generator": {"responses": 4}, "traffic": {}, "sweep": {""# + key + #"": "# + values + "}}"
  }

  @Test(
    "a bad value at each read and traffic key a sweep sets is an error at the sweep's key, naming the value",
    arguments: [
      ("read.verify", #"[true, "yes"]"#, "w.json:1:82: sweep.read.verify: value 1 (yes): must be true or false, not a string"),
      ("read.pointLookups", "[-1]", "w.json:1:82: sweep.read.pointLookups: value 0 (-1): must be between 0 and 100000000, got -1"),
      (
        "read.fieldPolicyLookups", "[1.5]",
        "w.json:1:82: sweep.read.fieldPolicyLookups: value 0 (1.5): must be an integer, not a number"
      ),
      (
        "read.fragments", "[100000001]",
        "w.json:1:82: sweep.read.fragments: value 0 (100000001): must be between 0 and 100000000, got 100000001"
      ),
      ("read.watchers", "[1, 100001]", "w.json:1:82: sweep.read.watchers: value 1 (100001): must be between 0 and 100000, got 100001"),
      ("read.churn", "[2]", "w.json:1:82: sweep.read.churn: value 0 (2): must be between 0 and 1, got 2"),
      (
        "read.projectedReads", #"[false, "true"]"#,
        "w.json:1:82: sweep.read.projectedReads: value 1 (true): must be true or false, not a string"
      ),
      ("traffic.steps", "[0]", "w.json:1:82: sweep.traffic.steps: value 0 (0): must be between 1 and 100000000, got 0"),
      ("traffic.zipf", "[11]", "w.json:1:82: sweep.traffic.zipf: value 0 (11): must be between 0 and 10, got 11"),
      ("traffic.refetchShare", "[-0.5]", "w.json:1:82: sweep.traffic.refetchShare: value 0 (-0.5): must be between 0 and 1, got -0.5"),
      ("traffic.churn", #"["x"]"#, "w.json:1:82: sweep.traffic.churn: value 0 (x): must be a number, not a string"),
      ("traffic.watchers", "[-1]", "w.json:1:82: sweep.traffic.watchers: value 0 (-1): must be between 0 and 100000, got -1"),
      ("traffic.gc", "[1]", "w.json:1:82: sweep.traffic.gc: value 0 (1): must be true or false, not an integer"),
      ("traffic.startAt", "[-1]", "w.json:1:82: sweep.traffic.startAt: value 0 (-1): must be between 0 and 253402300799, got -1"),
      (
        "traffic.refreshOnExpiry", #"["no"]"#,
        "w.json:1:82: sweep.traffic.refreshOnExpiry: value 0 (no): must be true or false, not a string"
      ),
      (
        "read.projectedRead", "[true]",
        #"w.json:1:82: sweep.read.projectedRead: is not a key of "read"; did you mean "read.projectedReads"?"#
      ),
      (
        "read.stale", "[true]",
        #"w.json:1:82: sweep.read.stale: is not a key of "read"; its keys are verify, pointLookups, fieldPolicyLookups, fragments, watchers, churn, projectedReads"#
      ),
    ])
  func badValue(key: String, values: String, expected: String) {
    do {
      _ = try load(Self.file(key, values))
      Issue.record("no error for \(key): \(values)")
    } catch {
      #expect(message(of: error) == expected)
    }
  }

  @Test("each point of a sweep of a read key meets what the read section needs of the workload, at the sweep's key")
  func pointChecks() {
    let cases = [
      (
        #"{"name": "w", "seed": 1, "generator": {"responses": 4}, "sweep": {"read.watchers": [2, 5]}}"#,
        "w.json:1:67: sweep.read.watchers: value 1 (5): read.watchers: is 5, more than the 4 operations the workload reads"
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {"responses": 4}, "keys": ["path"], "sweep": {"read.fragments": [0, 10]}}"#,
        #"w.json:1:85: sweep.read.fragments: value 1 (10): read.fragments: reads records by their own keys, but "keys" has only path, which keys none: add typePolicy or programmatic"#
      ),
      (
        #"{"name": "w", "seed": 1, "generator": {"responses": 4, "narrowReads": {}}, "sweep": {"read.projectedReads": [false, true]}}"#,
        "w.json:1:86: sweep.read.projectedReads: value 0 (false): read.verify: must be false with generator.narrowReads: each list reads page 1 again with new elements, so a later list changes what an earlier one reads back"
      ),
    ]
    for (text, expected) in cases {
      do {
        _ = try load(text)
        Issue.record("no error for \(text)")
      } catch {
        #expect(message(of: error) == expected)
      }
    }
  }

  @Test("the decoder reads each section's keys by the names a sweep knows, and no other")
  func keysAreTheKnobs() throws {
    var read = ConfigObject([:], path: "read", file: "w.json", locations: [:])
    _ = try WorkloadDecoder.read(&read)
    #expect(read.used == Set(Workload.ReadSettings.Knob.allCases.map(\.rawValue)))
    var traffic = ConfigObject([:], path: "traffic", file: "w.json", locations: [:])
    _ = try WorkloadDecoder.traffic(&traffic)
    #expect(traffic.used == Set(TrafficSettings.Knob.allCases.map(\.rawValue)))
  }
}
