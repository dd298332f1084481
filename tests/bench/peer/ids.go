package main

import (
	"strconv"
	"sync/atomic"
)

// idCounter is process-wide so ids stay unique across all resource types and
// concurrent applies (tofu runs up to -parallelism operations at once).
var idCounter atomic.Uint64

// nextID returns prefix followed by the next counter value, e.g. "item-1".
func nextID(prefix string) string {
	return prefix + strconv.FormatUint(idCounter.Add(1), 10)
}
