import NormalizedCache
import Results
import SQLiteCache

// The enums of other modules that options take, each a choice of its cases (``OptionValue``'s
// `CaseIterable & RawRepresentable` conformance): their help lists the cases, a value outside
// them is refused when the command line is read, and no command parses one itself.

extension TTLEnforcement: OptionValue {}
extension KeyStrategyName: OptionValue {}
extension RecordListing: OptionValue {}
extension SQLiteNormalizedCache.Layout: OptionValue {}
extension ResultsExport.Format: OptionValue {}
extension Better: OptionValue {}
