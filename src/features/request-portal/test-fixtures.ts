/**
 * Test fixture: a request portal open to the public (name optional, e-mail required, no phone, the requester
 * told of changes), as the settings form sends it. The API tests and the browser journey open it alike.
 */
export const PORTAL_SETTINGS = {
  enabled: true,
  nameField: 'optional',
  emailField: 'required',
  phoneField: 'hidden',
  notifyRequester: true,
  welcome: 'Tell us what is wrong',
  published: [] as { kind: string; id: number }[],
};
