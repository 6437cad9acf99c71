/** The sandbox console's entry (built by scripts/build-console.mjs into dist/console/). */
import { render } from 'preact';
import { App } from './app.tsx';

render(<App />, document.getElementById('app')!);
