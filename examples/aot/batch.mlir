// The ahead-of-time example with a dynamic batch (docs/AOT.md, "Checked
// calls"): the rows of x and y, added, and the sums of x's rows. The add
// needs x and y to have the same number of rows; run_checked.c calls it
// through the header graph-run --emit-header writes.
//   x = [[1, 2, 3], [4, 5, 6]], y = [[10, 20, 30], [40, 50, 60]]:
//   x + y = [[11, 22, 33], [44, 55, 66]], row sums [6, 15].
func.func @batch(%x: tensor<?x3xf32>, %y: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?xf32>) {
  %s = graph.add %x, %y : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
  %r = graph.reduce sum %x axes = [1] : tensor<?x3xf32> -> tensor<?xf32>
  return %s, %r : tensor<?x3xf32>, tensor<?xf32>
}
