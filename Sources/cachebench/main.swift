import CachebenchCLI
import Foundation

// The command line with the built-in resolvers; a package of your own calls the same function
// with its own (see Examples/AppTeam).
exit(Cachebench.main())
