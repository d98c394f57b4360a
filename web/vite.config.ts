// The web interface's build: web/ → dist/web (hashed files under assets/), served by the gateway.
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const here = fileURLToPath(new URL('.', import.meta.url))

export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  // The repository's own tools (tap's reporter) keep React 18 at the top of node_modules; the
  // interface's React 19 lives in web/node_modules: every import of react resolves there.
  resolve: { dedupe: ['react', 'react-dom'] },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // No inline script: the policy forbids it (the module preload helper stays in a file).
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // The topology page's chunk (cytoscape and its fcose layout, ~570 kB, 175 kB compressed) is
    // loaded only when that page opens; the first load stays far smaller (bench/ui.ts).
    chunkSizeWarningLimit: 700,
  },
})
