// Preloaded into the timed `wp-bench scan` process (node -r): writes its peak resident set size (KiB) at exit.
const fs = require('node:fs');
process.on('exit', () => {
  if (process.env.WPBENCH_RSS_FILE) fs.writeFileSync(process.env.WPBENCH_RSS_FILE, String(process.resourceUsage().maxRSS));
});
