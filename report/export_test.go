package report

// TableBuilds counts the builds of the comparison and numbers tables.
func TableBuilds() int { return int(tableBuilds.Load()) }

// Shorten is shorten, for tests.
var Shorten = shorten
