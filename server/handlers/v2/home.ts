/** `GET /` (getHome): a browser opening the base URL is pointed to the reference and, in the sandbox, the console. */
import { homePage, pageHeaders, staticPageCsp } from '../../http/pages.ts';
import type { Handler } from '../types.ts';

export const getHome: Handler<'getHome'> = ({ services: { config } }) => ({
  status: 200,
  type: 'text/html',
  body: homePage(config.baseUrl, config.env !== 'production'),
  headers: { ...pageHeaders(`${staticPageCsp}; frame-ancestors 'none'`), 'X-Frame-Options': 'DENY' },
});
