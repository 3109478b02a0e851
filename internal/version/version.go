// Package version names this build of loadverdict, the same way in the
// CLI and the Lambda functions, so that their reports are byte-identical.
package version

import (
	"regexp"
	"runtime/debug"
)

// Override is set at build time with
// -ldflags "-X github.com/loadverdict/loadverdict/internal/version.Override=vX.Y.Z".
var Override = ""

// Dev names builds from a checkout. Pseudo-versions that the go command
// stamps on such builds are not used: reports would then differ from
// build to build of the same code.
const Dev = "v0.1.0-dev"

var releaseRE = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+$`)

// String returns the version: Override, else the module's release version
// when installed as one (go install ...@vX.Y.Z), else Dev.
func String() string {
	if Override != "" {
		return Override
	}
	if bi, ok := debug.ReadBuildInfo(); ok && releaseRE.MatchString(bi.Main.Version) {
		return bi.Main.Version
	}
	return Dev
}

// GeneratedBy is what reports say made them.
func GeneratedBy() string { return "loadverdict " + String() }
