import { existsSync, readFileSync } from 'node:fs';
import { type DefaultTheme, defineConfig } from 'vitepress';

// The library API pages that `typedoc` (typedoc.json) writes to docs/api/ before each build.
const apiSidebarFile = new URL('../api/typedoc-sidebar.json', import.meta.url);
const apiSidebar: DefaultTheme.SidebarItem[] = existsSync(apiSidebarFile) ? JSON.parse(readFileSync(apiSidebarFile, 'utf8')) : [];

export default defineConfig({
  title: 'Curbside',
  description: 'A WebGPU-native urban sidewalk simulator and benchmark that runs in Chrome',
  cleanUrls: true,
  // A broken internal link fails the build (VitePress's dead-link check, left on).
  ignoreDeadLinks: false,
  srcExclude: ['**/README.md'],
  themeConfig: {
    search: { provider: 'local' },
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Concepts', link: '/concepts/architecture' },
      { text: 'Reference', link: '/reference/cli' },
      { text: 'API', link: '/api/' },
      { text: 'Results', link: '/RESULTS' },
    ],
    sidebar: [
      {
        text: 'Guide',
        items: [
          { text: 'Getting started', link: '/guide/getting-started' },
          { text: 'Benchmark a navigation model', link: '/guide/benchmark' },
          { text: 'Export and train a policy', link: '/guide/policies' },
          { text: 'Evaluate agents in the arena', link: '/guide/arena' },
          { text: "UrbanGround's ladder", link: '/guide/urbanground' },
          { text: 'Bring your own street or scan', link: '/guide/your-own-street' },
          { text: 'A real place from OpenStreetMap', link: '/guide/real-places' },
          { text: 'Conditions and closures', link: '/guide/conditions-and-closures' },
          { text: 'Render a capture', link: '/guide/render' },
          { text: 'Profile the renderer', link: '/guide/profiling' },
          { text: 'Run on a cluster', link: '/guide/cluster' },
          { text: 'The live demo', link: '/guide/demo' },
          { text: 'Robot embodiments', link: '/guide/embodiments' },
          { text: 'Pedestrian bodies', link: '/guide/pedestrian-bodies' },
          { text: 'What the camera sees', link: '/guide/look' },
        ],
      },
      {
        text: 'Concepts',
        items: [
          { text: 'Coordinate frames and units', link: '/concepts/frames' },
          { text: 'File formats', link: '/concepts/formats' },
          { text: 'Metrics', link: '/concepts/metrics' },
          { text: 'Worlds', link: '/concepts/worlds' },
          { text: 'Robot, pedestrians and crowds', link: '/concepts/simulation' },
          { text: 'The splat renderer', link: '/concepts/splat-renderer' },
          { text: 'Architecture: the layers', link: '/concepts/architecture' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'Command-line tools', link: '/reference/cli' },
          { text: 'File formats (generated)', link: '/reference/formats' },
          { text: 'Library API (TypeDoc)', link: '/api/', collapsed: true, items: apiSidebar },
          { text: 'Results', link: '/RESULTS' },
          { text: 'Results history', link: '/RESULTS-history' },
          { text: 'Data credits', link: '/credits' },
        ],
      },
    ],
  },
});
