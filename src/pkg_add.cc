// The package's PKG_ADD and PKG_DEL commands, and nothing else (this file is not
// compiled): `pkg install` collects the lines marked so from src/*.cc, and the build
// writes them to src/PKG_ADD and src/PKG_DEL for addpath () of a build tree.
// PKG_ADD: autoload ("__gpuscan__", "gpuscan.oct");
// PKG_ADD: autoload ("gpuscan_filter", "gpuscan.oct");
// PKG_DEL: if (exist ("__gpuscan__") == 3) __gpuscan__ ("release"); end
// PKG_DEL: autoload ("__gpuscan__", "gpuscan.oct", "remove");
// PKG_DEL: autoload ("gpuscan_filter", "gpuscan.oct", "remove");
