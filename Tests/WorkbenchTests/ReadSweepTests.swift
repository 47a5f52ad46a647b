import Foundation
import Results
import Testing
import Workloads

@testable import Workbench

/// A sweep of a read key reaches the executor: each variant reads as its point says.
@Suite("A sweep of the read section, run")
struct ReadSweepTests {
  @Test("a sweep of read.projectedReads: the projected variant's reads load fewer fields than the whole-record variant's")
  func projectedVariantLoadsFewerFields() throws {
    let rows = try runWorkload(
      #"""
      {"name": "projected", "seed": 5,
       "generator": {"responses": 8, "types": 2, "keyedShare": 1, "poolSize": 4, "duplication": 1, "listLength": 3,
                     "narrowReads": {"fields": 2, "of": 12, "share": 0.5}},
       "keys": ["typePolicy"], "stores": [{"kind": "sqlite", "layout": "rows", "label": "sqlite-rows"}],
       "repetitions": 1, "warmup": 0,
       "read": {"verify": false, "pointLookups": 0, "fieldPolicyLookups": 0},
       "sweep": {"read.projectedReads": [false, true]}}
      """#
    ).rows
    func fieldsLoaded(_ variant: String) throws -> Double {
      let row = try #require(rows.first { $0.key.variant == variant && $0.key.phase == .lookup && $0.key.metric == "fields_loaded" })
      return row.summary.mean
    }
    let whole = try fieldsLoaded("projectedReads=false")
    let projected = try fieldsLoaded("projectedReads=true")
    #expect(projected < whole, "projected \(projected), whole \(whole)")
  }
}
