import { startSmtpServer } from '/work/main/src/server/test/fixtures';
import { smtpSender } from '/work/main/src/server/mailer';
const s = await startSmtpServer();
const send = smtpSender(s.url);
for (let i = 0; i < 5; i++) { const t0 = Date.now(); await send({ to: `a${i}@example.com`, subject: 'x', text: 'y' }); console.log(Date.now() - t0, 'ms'); }
await s.close();
