// Package partfile reads and writes the part files of sharded runs
// (`schedplay compare|sweep|validate -shard K/N -part FILE`) and merges
// them (`schedplay merge`; docs/batch.md). It is a package of its own so
// that the browser, which plans and runs experiments through
// core/experiment but never shards them, does not link crypto/sha256.
package partfile
