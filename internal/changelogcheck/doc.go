// Package changelogcheck holds no code: its tests keep CHANGELOG.md in the
// shape a release is cut from (docs/development.md, Cutting a release). The
// top section is "main / unreleased" or a released version, each released
// section is "X.Y.Z / YYYY-MM-DD" with versions falling down the file, and
// each section's entries are "* [KIND] ..." in the order CHANGE, FEATURE,
// ENHANCEMENT, BUGFIX, SECURITY.
package changelogcheck
