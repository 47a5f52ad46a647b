import Foundation
import Testing

/// `export --format apollo` (docs/apollo.md): our rows in Apollo iOS's dataset, against rows of
/// their published 2.x baseline (`Fixtures/apollo/baseline-2.x-excerpt.json`, five results copied
/// verbatim from `Tests/ApolloPerformanceTests/CacheBenchmarks/baseline-2.x.json` of
/// apollo-ios-dev's branch `cache-rewrite/phase-1-plan` at 840d6ce8c9d2; `Fixtures/apollo/ORIGIN.md`),
/// and the hostile input that ends it.
@Suite("export --format apollo", .timeLimit(.minutes(10)))
struct ApolloExportTests {
  static let directory = fixtures + "/apollo"
  static let results = directory + "/tier2.csv"
  static let samples = directory + "/tier2-samples.csv"
  static let baseline = directory + "/baseline-2.x-excerpt.json"

  /// The results of the JSON on standard output, by scenario.
  static func results(_ stdout: String) throws -> (top: [String: Any], byScenario: [String: [String: Any]]) {
    let top = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
    let list = try #require(top["results"] as? [[String: Any]])
    return (top, Dictionary(uniqueKeysWithValues: list.map { ($0["scenario"] as! String, $0) }))
  }

  @Test("verdicts against Apollo's baseline rows, worked out by hand; their Tier-1 row left out")
  func verdictsByHand() async throws {
    let run = try await cachebench(["export", Self.results, "--format", "apollo", "--samples", Self.samples, "--baseline", Self.baseline])
    #expect(run.status == 0, "\(run.stderr)")
    let (top, byScenario) = try Self.results(run.stdout)
    #expect(top["baseline_version"] as? String == "2.x")
    #expect(top["baseline_git_sha"] as? String == "c3ed76fd91ab404c321a1cd6a574789074ac8752")
    #expect(top["git_sha"] as? String == "0123456789ab" && top["device"] as? String == "vm")
    // Each mean of our samples (tier2-samples.csv) in ms, the baseline's mean, and the change
    // (mean − baseline) × 100 / baseline:
    // - inmemory batch load: 18, 19, 21, 22 µs → 0.02 against 0.02812414: −0.812414 / 0.02812414
    //   = −28.8867…%, improved.
    // - inmemory single-key load: 500, 600, 700 ns → 0.0006 against 0.00057272: 0.0027280 /
    //   0.0057272 = +4.7632…%, parity (under 5).
    // - sqlite (the 2.x layout) pattern delete: 12, 14 ms → 13 against 12.17348078: 82.6519… /
    //   12.17348078 = +6.7895…%, regressed.
    // - sqlite_compact many-record merge: 39, 41 ms → 40 against tier2.sqlite's 56.66373846 (the
    //   compact layout has no baseline of its own, so its family's): −1666.37… / 56.66373846 =
    //   −29.4081…%, improved.
    let expected: [(String, Double, Double, String)] = [
      ("tier2.inmemory.batch_load_100_records", 0.02, -28.886714, "improved"),
      ("tier2.inmemory.single_key_load_10_fields", 0.0006, 4.763235, "parity"),
      ("tier2.sqlite.pattern_delete_10k_records", 13, 6.789506, "regressed"),
      ("tier2.sqlite_compact.many_record_merge_1000_records", 40, -29.408117, "improved"),
    ]
    #expect(Set(byScenario.keys) == Set(expected.map(\.0)))
    for (scenario, mean, change, verdict) in expected {
      let result = try #require(byScenario[scenario])
      #expect(abs((result["mean_ms"] as? Double ?? .nan) - mean) < 1e-12, "\(scenario)")
      #expect(abs((result["delta_vs_baseline_pct"] as? Double ?? .nan) - change) < 1e-6, "\(scenario)")
      #expect(result["verdict"] as? String == verdict, "\(scenario)")
      #expect(result["tier"] as? Int == 2)
    }
    // p95 of 500, 600, 700 ns at rank 0.95 × 2 = 1.9: 600 + 0.9 × 100 = 690 ns.
    let singleKey = try #require(byScenario["tier2.inmemory.single_key_load_10_fields"])
    #expect(abs((singleKey["p95_ms"] as? Double ?? .nan) - 0.00069) < 1e-15)
    #expect(singleKey["iterations"] as? Int == 3)
  }

  @Test("a result the baseline has no counterpart of is written without a verdict and named on standard error")
  func uncompared() async throws {
    let scratch = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    try Self.baseline(
      replacing: #""scenario": "tier2.inmemory.batch_load_100_records","#, with: #""scenario": "tier2.inmemory.batch_load_99_records","#
    ).write(toFile: scratch + "/b.json", atomically: true, encoding: .utf8)
    let run = try await cachebench(
      ["export", Self.results, "--format", "apollo", "--samples", Self.samples, "--baseline", "b.json"], in: scratch)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stderr == "note: b.json has no counterpart of 1 scenario(s), written without a verdict: tier2.inmemory.batch_load_100_records\n")
    let (_, byScenario) = try Self.results(run.stdout)
    let lacking = try #require(byScenario["tier2.inmemory.batch_load_100_records"])
    #expect(lacking["verdict"] == nil && lacking["delta_vs_baseline_pct"] == nil)
    // The others are judged as verdictsByHand works them out.
    #expect(byScenario["tier2.inmemory.single_key_load_10_fields"]?["verdict"] as? String == "parity")
    #expect(byScenario["tier2.sqlite.pattern_delete_10k_records"]?["verdict"] as? String == "regressed")
  }

  @Test(
    "the shipped Tier-2 workload, run and exported against a baseline of Apollo's shape: the floors without a verdict, Apollo's backends judged"
  )
  func shippedWorkload() async throws {
    let scratch = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let run = try await cachebench(
      ["run", "Workloads/apollo-tier2.json", "--quick", "--out", scratch + "/t.csv", "--samples", scratch + "/s.csv", "--no-progress"])
    #expect(run.status == 0, "\(run.stderr)")
    let export = try await cachebench(
      ["export", scratch + "/t.csv", "--format", "apollo", "--samples", scratch + "/s.csv", "--baseline", Self.baseline])
    #expect(export.status == 0, "\(export.stderr)")
    let (_, byScenario) = try Self.results(export.stdout)
    // Every floor's scenario is named on standard error and has no verdict; every result of
    // Apollo's own backends (inmemory, sqlite) whose scenario the excerpt holds has one.
    let floors = byScenario.keys.filter { $0.hasPrefix("tier2.limit_") }
    #expect(!floors.isEmpty)
    let note = try #require(export.stderr.split(separator: "\n").first { $0.hasPrefix("note: ") })
    for scenario in floors {
      #expect(byScenario[scenario]?["verdict"] == nil, "\(scenario)")
      #expect(note.contains(scenario), "\(scenario)")
    }
    let baselineScenarios = try Self.results(String(contentsOfFile: Self.baseline, encoding: .utf8)).byScenario.keys
    for scenario in baselineScenarios where byScenario[scenario] != nil {
      #expect(byScenario[scenario]?["verdict"] is String, "\(scenario)")
    }
    // The over-fetch's gate baseline is exported wherever the over-fetch is, without a verdict
    // against 2.x (which has neither), and named on standard error.
    let overfetch = byScenario.keys.filter { $0.hasSuffix(".inline_fragment_overfetch_40_fields_8_used") }
    #expect(!overfetch.isEmpty)
    for scenario in overfetch {
      let matched = scenario.replacingOccurrences(
        of: "inline_fragment_overfetch_40_fields_8_used", with: "inline_fragment_matched_type_case_only_8_fields")
      #expect(byScenario[matched] != nil && byScenario[matched]?["verdict"] == nil && note.contains(matched), "\(matched)")
    }
  }

  @Test("--out writes what standard output gets; without --baseline no change and no verdict")
  func out() async throws {
    let scratch = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let printed = try await cachebench(["export", Self.results, "--format", "apollo", "--samples", Self.samples, "--device", "M1 Pro"])
    let written = try await cachebench(
      ["export", Self.results, "--format", "apollo", "--samples", Self.samples, "--device", "M1 Pro", "--out", scratch + "/d/apollo.json"])
    #expect(printed.status == 0 && written.status == 0 && written.stdout.isEmpty)
    #expect(try String(contentsOfFile: scratch + "/d/apollo.json", encoding: .utf8) == printed.stdout)
    let (top, byScenario) = try Self.results(printed.stdout)
    #expect(top["device"] as? String == "M1 Pro" && top["version"] as? String == "cachebench" && top["baseline_version"] == nil)
    #expect(byScenario.values.allSatisfy { $0["verdict"] == nil && $0["delta_vs_baseline_pct"] == nil })
  }

  typealias Case = HostileInputTests.Case

  /// A baseline of about `megabytes` MB: the fixture's results first, then made-up Tier-1 ones,
  /// pretty-printed as Apollo's file is.
  static func largeBaseline(megabytes: Int) throws -> String {
    let text = try String(contentsOfFile: baseline, encoding: .utf8)
    let end = try #require(text.range(of: "\n  ]\n}", options: .backwards))
    var body = String(text[..<end.lowerBound])
    var index = 0
    while body.utf8.count < megabytes * 1_000_000 {
      body +=
        ",\n    {\n      \"tier\": 1,\n      \"scenario\": \"tier1.made_up_\(index)\",\n      \"mean_ms\": \(index).5,\n"
        + "      \"std_ms\": 0.5,\n      \"p50_ms\": 1.5,\n      \"p95_ms\": 2.5,\n      \"p99_ms\": 3.5,\n      \"iterations\": 50\n    }"
      index += 1
    }
    return body + String(text[end.lowerBound...])
  }

  @Test("a 10 MB baseline is read in one pass: judged, or refused at a bad first result (the suite's time limit catches a quadratic parse)")
  func largeBaseline() async throws {
    let scratch = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let large = try Self.largeBaseline(megabytes: 10)
    try large.write(toFile: scratch + "/b.json", atomically: true, encoding: .utf8)
    let judged = try await cachebench(
      ["export", Self.results, "--format", "apollo", "--samples", Self.samples, "--baseline", "b.json"], in: scratch)
    #expect(judged.status == 0, "\(judged.stderr)")
    let (_, byScenario) = try Self.results(judged.stdout)
    #expect(byScenario["tier2.inmemory.batch_load_100_records"]?["verdict"] as? String == "improved")
    try Self.baselineReplacingFirst(in: large, #""mean_ms": 0.02812414,"#, with: #""mean_ms": "fast","#)
      .write(toFile: scratch + "/bad.json", atomically: true, encoding: .utf8)
    let refused = try await cachebench(
      ["export", Self.results, "--format", "apollo", "--samples", Self.samples, "--baseline", "bad.json"], in: scratch)
    #expect(refused.status == 65)
    #expect(refused.stderr == "Error: bad.json:19:7: results[1].mean_ms: must be a number, not a string\n")
  }

  static func baselineReplacingFirst(in text: String, _ old: String, with new: String) throws -> String {
    let range = try #require(text.range(of: old))
    return text.replacingCharacters(in: range, with: new)
  }

  /// The baseline excerpt with `old` replaced by `new` (once).
  static func baseline(replacing old: String, with new: String) -> String {
    let text = (try? String(contentsOfFile: baseline, encoding: .utf8)) ?? ""
    precondition(text.contains(old), "the fixture has no \(old)")
    return text.replacingOccurrences(of: old, with: new)
  }

  /// `export` of the fixtures against `b.json`, holding `text`.
  static func against(_ name: String, _ text: String, status: Int32, stderr: String) -> Case {
    Case(
      name: name, files: ["b.json": text],
      arguments: ["export", results, "--format", "apollo", "--samples", samples, "--baseline", "b.json"], status: status, stderr: stderr)
  }

  static let batchMean = #""mean_ms": 0.02812414,"#

  static let cases: [Case] = [
    against("a baseline that is not JSON", #"{"version": "2.x",}"# + "\n", status: 65, stderr: "Error: b.json:1:19: "),
    against(
      "a baseline that is an array", "[]\n", status: 65,
      stderr: "Error: b.json: must be a JSON object, Apollo's dataset (docs/apollo.md), not an array\n"),
    against(
      "a baseline without git_sha", baseline(replacing: #""git_sha": "c3ed76fd91ab404c321a1cd6a574789074ac8752","#, with: ""), status: 65,
      stderr: "Error: b.json:2:3: git_sha: is missing\n"),
    against(
      "a result without mean_ms", baseline(replacing: batchMean, with: ""), status: 65,
      stderr: "Error: b.json:18:7: results[1].mean_ms: is missing\n"),
    against(
      "a mean that is a string", baseline(replacing: batchMean, with: #""mean_ms": "fast","#), status: 65,
      stderr: "Error: b.json:19:7: results[1].mean_ms: must be a number, not a string\n"),
    against("a mean that is NaN", baseline(replacing: batchMean, with: #""mean_ms": NaN,"#), status: 65, stderr: "Error: b.json:19:18: "),
    against(
      "a mean past a Double, 1e999", baseline(replacing: batchMean, with: #""mean_ms": 1e999,"#), status: 65,
      stderr: "Error: b.json:19:18: Number 1e999 is out of range\n"),
    against(
      "a negative mean", baseline(replacing: batchMean, with: #""mean_ms": -1,"#), status: 65,
      stderr: "Error: b.json:19:7: results[1].mean_ms: must be 0 or more, got -1\n"),
    against(
      "a mean so small that the change is no number", baseline(replacing: batchMean, with: #""mean_ms": 5e-324,"#), status: 65,
      stderr:
        "Error: tier2.inmemory.batch_load_100_records: the change from the baseline's mean (5e-324 ms, b.json) to 0.02 ms is not a finite number\n"
    ),
    against(
      "a baseline of other scenarios only",
      #"{"version": "2.x", "captured_at": "t", "git_sha": "s", "device": "d", "results": ["#
        + #"{"tier": 1, "scenario": "tier1.cache_and_network", "mean_ms": 1, "std_ms": 0, "p50_ms": 1, "p95_ms": 1, "p99_ms": 1, "iterations": 1}]}"#
        + "\n",
      status: 65,
      stderr:
        "Error: b.json has no scenario to compare any result with (not tier2.inmemory.batch_load_100_records): "
        + "export without --baseline, or against a baseline of these scenarios\n"),
    against(
      "a scenario twice",
      baseline(replacing: #""scenario": "tier1.cache_and_network","#, with: #""scenario": "tier2.inmemory.batch_load_100_records","#),
      status: 65, stderr: "Error: b.json: the scenario tier2.inmemory.batch_load_100_records is there twice\n"),
    against(
      "no iterations", baseline(replacing: #""iterations": 50,"#, with: #""iterations": 0,"#), status: 65,
      stderr: "Error: b.json:8:7: results[0].iterations: must be 1 or more, got 0\n"),
    Case(
      name: "a baseline that does not exist",
      files: [:], arguments: ["export", results, "--format", "apollo", "--samples", samples, "--baseline", "none.json"], status: 66,
      stderr: "Error: cannot open 'none.json': No such file or directory\n"),
    Case(
      name: "apollo without --samples", files: [:], arguments: ["export", results, "--format", "apollo"], status: 64,
      stderr: "Error: Missing expected option '--samples <SAMPLES.csv>': Apollo's p95 comes from the samples.\n"),
    Case(
      name: "--samples with bmf", files: [:], arguments: ["export", results, "--format", "bmf", "--samples", samples], status: 64,
      stderr: "Error: '--samples' is for --format apollo, not --format bmf.\n"),
    Case(
      name: "--better with apollo", files: [:],
      arguments: ["export", results, "--format", "apollo", "--samples", samples, "--better", "lower"],
      status: 64, stderr: "Error: '--better' is for bmf and github-action-benchmark, not --format apollo.\n"),
    Case(
      name: "samples of another run",
      files: [
        "s.csv":
          "run_id,workload,variant,store,keys,phase,metric,unit,index,value\nr2,apollo-tier2,,memory,typePolicy,tier2,batch_load_100_records,ns,0,1\n"
      ],
      arguments: ["export", results, "--format", "apollo", "--samples", "s.csv"], status: 65,
      stderr:
        "Error: s.csv has no samples of apollo-tier2/memory/typePolicy/tier2/batch_load_100_records (run 20261126T000000Z-seed42): "
        + "give the --samples file of the run that wrote \(results)\n"),
    Case(
      name: "--out a directory", files: [:],
      arguments: ["export", results, "--format", "apollo", "--samples", samples, "--out", "."], status: 74, stderr: "Error: "),
  ]

  @Test("each hostile input: its exit code and message", arguments: cases)
  func hostile(_ testCase: Case) async throws {
    let scratch = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    for (name, text) in testCase.files { try text.write(toFile: scratch + "/" + name, atomically: true, encoding: .utf8) }
    let run = try await cachebench(testCase.arguments, in: scratch)
    #expect(run.status == testCase.status, "\(run.stderr)")
    #expect(run.stderr.hasPrefix(testCase.stderr), "\(run.stderr.prefix(400))")
    #expect(run.stdout.isEmpty)
  }
}
